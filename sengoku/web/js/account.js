// Optional player accounts (docs/api.md "Accounts"): the "signed in as" mark in the top bar
// and the sign-in / sign-up page. A guest plays as before; signing in claims the seats whose
// tokens this browser holds, so the account lists and exports their games.

import { api, allTokens } from "./api.js";
import { el, clear, toast } from "./ui.js";
import { navigate } from "./nav.js";
import { _, fmt } from "./i18n.js";

let who = null; // the signed-in account, or null
const mark = el("span.account-mark", { id: "account-mark", "aria-live": "polite" });
let known = null; // the first answer of /api/account/me (a promise)

/** Tell the pages (your_turn.js) who is signed in now. */
function setWho(account) {
  const changed = (who?.id || null) !== (account?.id || null);
  who = account;
  known = Promise.resolve(account); // what the server said last: signed in, or out
  drawMark();
  if (changed) window.dispatchEvent(new CustomEvent("sengoku:account", { detail: { account } }));
}

/** Ask the server who is signed in, once per page load (which also hands out the CSRF
 * cookie every later change needs). */
function askOnce() {
  if (!known) {
    known = api("GET", "/api/account/me")
      .then((out) => {
        who = out.account;
        drawMark();
        return who;
      })
      .catch(() => null);
  }
  return known;
}

/** The signed-in account (or null) once the server has said. */
export function whenKnown() {
  return askOnce();
}

/** The signed-in account (null for a guest). */
export const signedIn = whenKnown;

function drawMark() {
  clear(mark);
  if (who) {
    mark.append(
      el("span", {}, _("Signed in as "), el("a", { href: `/player/${encodeURIComponent(who.name)}`, "data-nav": "", id: "account-name", title: _("Your profile and ratings") }, el("strong", {}, who.name))),
      " · ",
      el("button.linklike", { type: "button", id: "sign-out", onclick: signOut }, _("Sign out")),
    );
  } else {
    mark.append(el("a", { href: "/account", "data-nav": "", id: "sign-in-link" }, _("Sign in")));
  }
}

/** The top bar's account mark; asks the server who is signed in (which also hands out the
 * CSRF cookie every later change needs). */
export function accountMark() {
  drawMark();
  askOnce();
  return mark;
}

async function claimHere() {
  const tokens = allTokens().slice(-500);
  if (!tokens.length) return 0;
  const out = await api("POST", "/api/account/claim", { body: { tokens } });
  return out.claimed.length;
}

async function signOut() {
  try {
    await api("POST", "/api/account/signout");
  } catch (err) {
    toast(err.message, "error");
  }
  setWho(null);
}

/** The optional address for "it is your turn" mails of turn-based games. */
function emailCard() {
  const input = el("input", { id: "account-email", name: "email", type: "email", autocomplete: "email", maxlength: 254, placeholder: "name@example.org" });
  const status = el("p.form-status", { role: "status", id: "email-status" });
  const note = el("p.muted", { id: "email-note" });
  const save = async (e) => {
    e.preventDefault();
    try {
      const out = await api("POST", "/api/account/email", { body: { email: input.value.trim() || null } });
      input.value = out.email || "";
      status.textContent = out.email ? fmt(_("Saved: mails go to {email}."), { email: out.email }) : _("No address: no mails.");
    } catch (err) {
      status.textContent = err.message;
    }
  };
  api("GET", "/api/account/email")
    .then((out) => {
      // what the player has begun to type is kept: the answer may come after it
      if (!input.value) input.value = out.email || "";
      note.textContent = out.mails_sent_here ? "" : _("This server sends no mails at present; the address is kept for when it does.");
    })
    .catch(() => {});
  return el(
    "form.card.account.email",
    { id: "email-form", onsubmit: save, "aria-labelledby": "email-title" },
    el("h2", { id: "email-title" }, _("E-mail when it is your turn")),
    el("p", {}, _("Optional. In turn-based games (days per move), a mail says when it is your turn: the game, your opponents and a link, nothing more. Leave it empty for none.")),
    el("p.field", {}, el("label", { for: "account-email" }, _("E-mail address")), input),
    note,
    el("button.primary", { type: "submit" }, _("Save")),
    status,
  );
}

function field(id, label, attrs) {
  return el("p.field", {}, el("label", { for: id }, label), el("input", { id, name: id, required: true, ...attrs }));
}

/** /account: sign in or make an account (and, signed in, export or sign out). */
export async function accountPage(root) {
  document.title = _("Account — Sengoku");
  if (!who) {
    try {
      who = (await api("GET", "/api/account/me")).account;
    } catch (err) {
      who = null;
    }
  }
  if (who) {
    root.append(
      el(
        "section.card.account",
        {},
        el("h1", {}, fmt(_("Signed in as {name}"), { name: who.name })),
        el("p", {}, _("Your games are the seats you took while signed in and those this browser held when you signed in.")),
        el("p.actions", {}, el("a.button.primary", { href: `/player/${encodeURIComponent(who.name)}`, "data-nav": "", id: "my-profile" }, _("My profile and ratings")), " ", el("a.button.secondary", { href: "/api/account/export", download: "sengoku-games.zip" }, _("Download my games (zip)")), " ", el("button.secondary", { type: "button", onclick: async () => { await signOut(); navigate("/account", true); } }, _("Sign out"))),
      ),
      emailCard(),
    );
    return;
  }
  const status = el("p.form-status", { role: "status", id: "account-status" });
  const submit = async (e, path) => {
    e.preventDefault();
    const form = e.target;
    const body = { name: form.elements.name.value.trim(), password: form.elements.password.value };
    try {
      const out = await api("POST", path, { body });
      const claimed = await claimHere();
      setWho(out.account);
      toast(claimed ? fmt(_("Signed in; {claimed} seat(s) of this browser are now yours"), { claimed }) : _("Signed in"));
      navigate("/");
    } catch (err) {
      status.textContent = err.message;
    }
  };
  const form = (id, title, path, autocomplete, button) =>
    el(
      "form.card.account",
      { id, onsubmit: (e) => submit(e, path), "aria-labelledby": `${id}-title` },
      el("h2", { id: `${id}-title` }, title),
      field(`${id}-name`, _("Name"), { name: "name", autocomplete: "username", maxlength: 32, minlength: 2 }),
      field(`${id}-password`, _("Password"), { name: "password", type: "password", autocomplete, minlength: 8, maxlength: 256 }),
      el("button.primary", { type: "submit" }, button),
    );
  root.append(
    el("h1", {}, _("Account")),
    el("p", {}, _("An account is optional: guests play as before. Signed in, the games you play are kept under your name.")),
    status,
    el("div.account-forms", {}, form("signin", _("Sign in"), "/api/account/signin", "current-password", _("Sign in")), form("signup", _("Make an account"), "/api/account/signup", "new-password", _("Make an account"))),
  );
}
