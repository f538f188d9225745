// Optional player accounts (docs/api.md "Accounts"): the "signed in as" mark in the top bar
// and the sign-in / sign-up page. A guest plays as before; signing in claims the seats whose
// tokens this browser holds, so the account lists and exports their games.

import { api, allTokens } from "./api.js";
import { el, clear, toast } from "./ui.js";
import { navigate } from "./nav.js";

let who = null; // the signed-in account, or null
let asked = null; // the first GET /api/account/me under way

/** The signed-in account (null for a guest), asked of the server once per page load. */
export async function signedIn() {
  if (who) return who;
  if (!asked) asked = api("GET", "/api/account/me").then((out) => out.account).catch(() => null);
  who = (await asked) || who;
  return who;
}

const mark = el("span.account-mark", { id: "account-mark", "aria-live": "polite" });

function drawMark() {
  clear(mark);
  if (who) {
    mark.append(
      el("span", {}, "Signed in as ", el("a", { href: `/player/${encodeURIComponent(who.name)}`, "data-nav": "", id: "account-name", title: "Your profile and ratings" }, el("strong", {}, who.name))),
      " · ",
      el("button.linklike", { type: "button", id: "sign-out", onclick: signOut }, "Sign out"),
    );
  } else {
    mark.append(el("a", { href: "/account", "data-nav": "", id: "sign-in-link" }, "Sign in"));
  }
}

/** The top bar's account mark; asks the server who is signed in (which also hands out the
 * CSRF cookie every later change needs). */
export function accountMark() {
  drawMark();
  signedIn().then(drawMark);
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
  who = null;
  asked = Promise.resolve(null);
  drawMark();
}

function field(id, label, attrs) {
  return el("p.field", {}, el("label", { for: id }, label), el("input", { id, name: id, required: true, ...attrs }));
}

/** /account: sign in or make an account (and, signed in, export or sign out). */
export async function accountPage(root) {
  document.title = "Account — Sengoku";
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
        el("h1", {}, `Signed in as ${who.name}`),
        el("p", {}, "Your games are the seats you took while signed in and those this browser held when you signed in."),
        el("p.actions", {}, el("a.button.primary", { href: `/player/${encodeURIComponent(who.name)}`, "data-nav": "", id: "my-profile" }, "My profile and ratings"), " ", el("a.button.secondary", { href: "/api/account/export", download: "sengoku-games.zip" }, "Download my games (zip)"), " ", el("button.secondary", { type: "button", onclick: async () => { await signOut(); navigate("/account", true); } }, "Sign out")),
      ),
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
      who = out.account;
      asked = Promise.resolve(who);
      drawMark();
      const claimed = await claimHere();
      toast(claimed ? `Signed in; ${claimed} seat(s) of this browser are now yours` : "Signed in");
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
      field(`${id}-name`, "Name", { name: "name", autocomplete: "username", maxlength: 32, minlength: 2 }),
      field(`${id}-password`, "Password", { name: "password", type: "password", autocomplete, minlength: 8, maxlength: 256 }),
      el("button.primary", { type: "submit" }, button),
    );
  root.append(
    el("h1", {}, "Account"),
    el("p", {}, "An account is optional: guests play as before. Signed in, the games you play are kept under your name."),
    status,
    el("div.account-forms", {}, form("signin", "Sign in", "/api/account/signin", "current-password", "Sign in"), form("signup", "Make an account", "/api/account/signup", "new-password", "Make an account")),
  );
}
