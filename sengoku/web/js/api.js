// The game server's API (docs/api.md): HTTP with bearer seat tokens, and the WebSocket.
// Seat tokens live in localStorage per match; they never travel in a URL.


import { _ } from "./i18n.js";

const TOKENS_KEY = "sengoku.tokens";
const INVITES_KEY = "sengoku.invites";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A cookie of this site that the page may read (the CSRF token; the session cookie is
 * HttpOnly and never visible here). */
function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  // Signed in, the server refuses a state-changing request its session cookie would
  // authenticate unless the page echoes the CSRF cookie (docs/api.md "Accounts").
  const csrf = method !== "GET" ? cookie("sengoku_csrf") : null;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", _("the server cannot be reached; check your connection"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || "http_error", e.message || response.statusText);
  }
  return data;
}

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch (err) {
    return {};
  }
}

/** {seat: token} for the seats this browser holds in ``matchId``. */
export function tokensFor(matchId) {
  return readJson(TOKENS_KEY)[matchId] || {};
}

export function saveToken(matchId, seat, token) {
  const all = readJson(TOKENS_KEY);
  all[matchId] = { ...(all[matchId] || {}), [seat]: token };
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}

/** Every seat token this browser holds (an account claims their seats with them). */
export function allTokens() {
  return Object.values(readJson(TOKENS_KEY)).flatMap((seats) => Object.values(seats || {}));
}

/** Match ids this browser holds a seat in, newest first. */
export function heldMatches() {
  return Object.keys(readJson(TOKENS_KEY)).reverse();
}

/** Invitation links are shown to the creator only, so they are kept with the match. */
export function invitesFor(matchId) {
  return readJson(INVITES_KEY)[matchId] || [];
}

export function saveInvites(matchId, invites) {
  const all = readJson(INVITES_KEY);
  all[matchId] = invites;
  localStorage.setItem(INVITES_KEY, JSON.stringify(all));
}

/** The invitation link for a seat: the secret rides in the fragment, which no server logs. */
export function inviteUrl(matchId, invite) {
  return `${location.origin}/play/${encodeURIComponent(matchId)}#invite=${encodeURIComponent(invite)}`;
}

/**
 * A WebSocket that says hello with the seat's token, reconnects when dropped and resumes
 * after the last event seen. ``onMessage`` gets every server message.
 */
export class MatchSocket {
  constructor(matchId, token, after, onMessage, onStatus) {
    this.matchId = matchId;
    this.token = token;
    this.after = after;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.retry = 500;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/matches/${this.matchId}`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token || null, after: this.after, short: true }));
    };
    ws.onmessage = (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch (err) {
        return;
      }
      if (data.type === "welcome") {
        this.retry = 500;
        this.onStatus("connected");
      }
      if (data.type === "event" && data.n > this.after) this.after = data.n;
      this.onMessage(data);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus("reconnecting");
      setTimeout(() => !this.closed && this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
