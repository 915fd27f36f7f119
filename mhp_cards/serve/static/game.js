// The open game: its answers from the server, the hand-over, the event stream, playing.

import { api } from "./api.js";
import { show } from "./app.js";
import { renderTable } from "./board.js";
import { colourName, dot, who } from "./cards.js";
import { closeSheet, h, openSheet, toast } from "./dom.js";
import { $, S, STORE, keepSeatKey, pick, seatKeys, t } from "./state.js";

// --- The open game ---------------------------------------------------------------------------

export function closeGame() {
  if (S.source) S.source.close();
  S.source = null;
  releaseWake();
  $("live").hidden = true;
  S.game = null;
  S.legal = null;
}

export async function openGame(id) {
  if (S.game?.id !== id) {
    closeGame();
    S.ruling = null;
    S.picked = null;
    // No seat chosen on this phone yet: null, and nobody's cards are fetched until one is.
    S.seat = localStorage.getItem(STORE.seat(id)) || null;
    S.confirmed = sessionStorage.getItem(STORE.seat(id)) || null;
    // A link with ?player=red (a join link for one seat) makes this phone that player's: it
    // claims the seat, or with &move=CODE (the link another phone shows) moves it here.
    const params = new URLSearchParams(location.search);
    const asked = params.get("player");
    if (asked && /^[a-z][a-z0-9-]{0,39}$/.test(asked)) {
      const code = params.get("move");
      if (code) {
        params.delete("move"); // a code works once: a reload must not send it again
        const query = params.toString();
        history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
        try {
          await moveSeatHere(id, asked, code);
        } catch (failure) {
          toast(failure.message);
        }
      } else await takeSeat(id, asked);
    }
  }
  try {
    await refresh(id);
  } catch (error) {
    if (error.status === 404) {
      localStorage.removeItem(STORE.game);
      location.hash = "#/";
      toast(error.message);
      return;
    }
    throw error;
  }
  localStorage.setItem(STORE.game, id);
  listen(id);
  requestWake();
}

/** This phone's seat in game ``id``: a colour, or "pass" (one phone for everyone). */
export function setSeat(id, seat) {
  S.seat = seat;
  localStorage.setItem(STORE.seat(id), seat);
  S.confirmed = seat === "pass" ? null : seat;
  if (S.confirmed) sessionStorage.setItem(STORE.seat(id), S.confirmed);
  else sessionStorage.removeItem(STORE.seat(id));
}

/**
 * This phone takes seat ``player`` of game ``id``: it claims it (or already holds it). True when
 * the seat is this phone's now; a seat another phone holds asks for the code that moves it.
 */
export async function takeSeat(id, player) {
  if (seatKeys(id)[player]) {
    setSeat(id, player);
    return true;
  }
  try {
    const { data } = await api(`/api/games/${id}/seats`, { player });
    keepSeatKey(id, player, data.secret);
    setSeat(id, player);
    return true;
  } catch (failure) {
    const code = failure.body?.error?.code;
    if (code === "seat-taken") askMoveCode(id, player);
    else toast(failure.message);
    return false;
  }
}

/** Move seat ``player`` to this phone with the code the phone holding it shows. */
export async function moveSeatHere(id, player, code) {
  const { data } = await api(`/api/games/${id}/seats/${encodeURIComponent(player)}/move`, { code });
  keepSeatKey(id, player, data.secret);
  setSeat(id, player);
}

/** A seat another phone holds: the code that phone shows moves it here. */
export function askMoveCode(id, player) {
  const input = h("input", { id: "move-code", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 20 });
  const error = h("p", { class: "form-error", id: "move-error" });
  error.hidden = true;
  const send = async () => {
    try {
      await moveSeatHere(id, player, input.value);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      return;
    }
    closeSheet();
    $("seat-choice").hidden = true;
    await refresh(id);
  };
  openSheet(
    t("move_title"),
    h(
      "div",
      { id: "move-sheet" },
      h("p", {}, dot(player), " ", t("move_taken", colourName(player, "gen"))),
      h("label", { class: "code-field" }, t("move_code"), input),
      error,
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", class: "secondary big", onclick: closeSheet }, t("cancel")),
        h("button", { type: "button", class: "primary big", id: "move-send", onclick: send }, t("move_send")),
      ),
    ),
  );
  input.focus();
}

/**
 * A seat this phone cannot show: a colour the game has not (a mistyped ?player=), or a seat
 * another phone holds now (it was moved away). Forgotten, so the phone asks again.
 */
function seatLost(failure, id) {
  const code = failure.body?.error?.code;
  if (code !== "unknown-player" && code !== "not-your-seat") return false;
  toast(failure.message);
  if (code === "not-your-seat" && failure.body.error.seat) keepSeatKey(id, failure.body.error.seat, null);
  localStorage.removeItem(STORE.seat(id));
  sessionStorage.removeItem(STORE.seat(id));
  S.seat = null;
  S.confirmed = null;
  return true;
}

/** True when another phone holds ``player``'s seat (that player plays on their own phone). */
export function elsewhere(game, player) {
  return (game.seats || []).includes(player) && !seatKeys(game.id)[player];
}

/**
 * Whose eyes the phone shows now: a fixed seat, or in pass-and-play the player who must act —
 * unless that player plays on a phone of their own: then nobody's (the public view).
 */
export function neededViewer(game) {
  if (S.seat === null) return null;
  if (S.seat !== "pass") return S.seat;
  const who = game.pending ? game.pending.to : fightActor(game.state) || game.turn;
  return elsewhere(game, who) ? null : who;
}

/**
 * Who takes the pending fight's next step: the winner chooses the spoils, then the loser the
 * retreat (Ruling L1.T4.R4); null for the dice (either fighter) or without a fight.
 */
export function fightActor(state) {
  const fight = state?.fight;
  if (!fight || !fight.winner) return null;
  if (fight.taken === null || fight.taken === undefined) return fight.winner;
  return fight.winner === fight.attacker ? fight.defender : fight.attacker;
}

export async function refresh(id = S.game?.id) {
  if (!id) return;
  if (S.seat === null) return chooseSeatFirst(id);
  const asked = S.seat !== "pass" ? S.seat : S.confirmed;
  const query = asked ? `?player=${encodeURIComponent(asked)}` : "";
  let data;
  try {
    ({ data } = await api(`/api/games/${id}${query}`));
  } catch (failure) {
    if (S.seat === "pass" && failure.body?.error?.code === "not-your-seat") {
      // The player who took the shared phone has a phone of their own now.
      S.confirmed = null;
      sessionStorage.removeItem(STORE.seat(id));
      ({ data } = await api(`/api/games/${id}`));
    } else if (seatLost(failure, id)) return chooseSeatFirst(id);
    else throw failure;
  }
  await receive(data);
}

/** Take an answer about the game (from GET or after a change) and draw the table. */
export async function receive(data) {
  // A change's answer carries the state but not the summary: whose turn it is comes from it.
  if (data.turn === undefined && data.state) data = { ...data, turn: data.state.players[data.state.turn].id };
  if (data.players === undefined && data.state) data = { ...data, players: data.state.players.map((p) => p.id) };
  const need = neededViewer(data);
  if (S.seat === "pass" && need && S.confirmed !== need && !data.state?.ended) {
    // The last ruling was the previous player's: its events may name cards only they saw.
    S.ruling = null;
    S.game = { ...data, state: null };
    S.legal = null;
    showHandover(need);
    return;
  }
  if ((data.viewer ?? null) !== need && (need || data.seats?.length)) {
    let again;
    try {
      again = await api(`/api/games/${data.id}${need ? `?player=${encodeURIComponent(need)}` : ""}`);
    } catch (failure) {
      if (!seatLost(failure, data.id)) throw failure;
      return chooseSeatFirst(data.id);
    }
    data = again.data;
  }
  S.game = data;
  $("handover").hidden = true;
  $("seat-choice").hidden = true;
  S.legal = null;
  const state = data.state;
  const acting = data.pending ? data.pending.to : data.turn;
  // The legal actions, as this phone may see them: its seat's, or the current player's on a
  // shared phone (never those of a player whose own phone holds their seat).
  const asker = data.viewer || (elsewhere(data, data.turn) ? null : data.turn);
  if (!state.ended && asker && (data.viewer === data.turn || state.fight) && !data.pending) {
    try {
      S.legal = (await api(`/api/games/${data.id}/legal?player=${encodeURIComponent(asker)}`)).data;
    } catch (error) {
      S.legal = null;
    }
  }
  S.acting = acting;
  renderTable();
}

/**
 * A phone that has not chosen its seat: who is at it? Only the game's summary is fetched (its
 * players), never a state: no hand is on the page before the choice, and the hand-over screen
 * (which would show the current player's hand to whoever taps it) is not offered.
 */
export async function chooseSeatFirst(id) {
  const { data } = await api("/api/games");
  const summary = (data.games || []).find((game) => game.id === id);
  if (!summary) throw Object.assign(new Error(t("no_such_game")), { status: 404 });
  S.game = { ...summary, state: null, viewer: null };
  S.legal = null;
  $("handover").hidden = true;
  renderTableSkeleton();
  const choose = async (seat) => {
    if (seat === "pass") setSeat(id, seat);
    else if (!(await takeSeat(id, seat))) return;
    $("seat-choice").hidden = true;
    await refresh(id);
  };
  $("seat-choice-buttons").replaceChildren(
    ...summary.players.map((p) =>
      h(
        "button",
        { type: "button", class: "primary big", dataset: { seat: p, taken: String(elsewhere(summary, p)) }, onclick: () => choose(p) },
        dot(p),
        " ",
        t("seat_one", colourName(p)),
        elsewhere(summary, p) ? h("span", { class: "sub" }, t("seat_taken")) : null,
      ),
    ),
    h("button", { type: "button", class: "secondary big", dataset: { seat: "pass" }, onclick: () => choose("pass") }, t("seat_pass")),
  );
  $("seat-choice").hidden = false;
}

export function showHandover(player) {
  $("handover-who").replaceChildren(dot(player), colourName(player));
  $("handover-ok").textContent = t("i_am", colourName(player));
  $("handover-ok").onclick = async () => {
    S.confirmed = player;
    sessionStorage.setItem(STORE.seat(S.game.id), player);
    $("handover").hidden = true;
    await refresh();
  };
  $("handover").hidden = false;
  renderTableSkeleton();
}

export function renderTableSkeleton() {
  for (const id of ["status", "actions", "hand-panel", "players-panel", "mission-panel", "supply-panel", "installations-panel", "fight-panel", "trade-offer"]) {
    $(id).replaceChildren();
  }
  $("fight-panel").hidden = true;
  $("field").replaceChildren();
}

export function listen(id) {
  if (S.source || !window.EventSource) return;
  const source = new EventSource(`/api/games/${id}/events`);
  S.source = source;
  source.onopen = () => {
    $("live").hidden = false;
    $("live").classList.remove("off");
  };
  source.onerror = () => $("live").classList.add("off");
  const onChange = async (message) => {
    let data = {};
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!S.game) return;
    if (data.version !== undefined && data.version <= S.game.version) return;
    if (S.busy) {
      S.stale = true; // fetched again once the answer being waited for has come
      return;
    }
    await refresh().catch(() => {});
  };
  source.addEventListener("change", onChange);
  source.onmessage = onChange;
}

// Screen Wake Lock: the screen stays on while a game is open (secure contexts only).
export async function requestWake() {
  if (!("wakeLock" in navigator) || S.wake || document.visibilityState !== "visible") return;
  try {
    S.wake = await navigator.wakeLock.request("screen");
    S.wake.addEventListener("release", () => {
      S.wake = null;
      delete document.body.dataset.wake;
    });
    document.body.dataset.wake = "on";
  } catch {
    document.body.dataset.wake = "refused";
  }
}
export function releaseWake() {
  if (S.wake) S.wake.release().catch(() => {});
  S.wake = null;
  delete document.body.dataset.wake;
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && S.game) requestWake();
});

// --- Playing ---------------------------------------------------------------------------------

/** Send an action; show its ruling; 422: explained and nothing applied; 409: fetch again. */
export async function play(action, { label } = {}) {
  if (!S.game || S.busy) return;
  S.busy = true;
  S.picked = null;
  const body = { action, version: S.game.version, player: S.game.viewer || undefined };
  try {
    const { status, data } = await api(`/api/games/${S.game.id}/actions`, body);
    if (status === 202 && data.proposal) {
      S.ruling = { ruling: { ...data.ruling, verdict: "proposal" }, events: [], note: () => t("proposal_wait", colourName(data.proposal.to, "gen")) };
    } else {
      S.ruling = { ruling: data.ruling, events: data.events || [] };
    }
    await receive(data);
  } catch (failure) {
    if (failure.status === 422 && failure.ruling) {
      S.ruling = { ruling: failure.ruling, events: [], note: () => t("nothing_applied") };
      renderTable();
    } else if (failure.status === 409) {
      toast(t("stale"));
      await refresh().catch(() => {});
    } else {
      S.ruling = {
        ruling: { verdict: "forbidden", reason: { ru: failure.message, en: failure.message }, rules: [] },
        events: [],
        note: label || "",
      };
      renderTable();
    }
  } finally {
    S.busy = false;
    catchUp();
  }
}

/** A change announced while an answer was awaited: fetch the game again if it is newer. */
export function catchUp() {
  if (!S.stale) return;
  S.stale = false;
  refresh().catch(() => {});
}

export async function undo() {
  if (!S.game || S.busy) return;
  S.busy = true;
  try {
    const { data } = await api(`/api/games/${S.game.id}/undo`, { version: S.game.version, player: S.game.viewer || undefined });
    toast(t("undone", (data.undone || []).length));
    S.ruling = null;
    await receive(data);
  } catch (failure) {
    if (failure.status === 409 && failure.body?.error?.code === "nothing-to-undo") {
      toast(`${t("nothing_to_undo")}: ${pick(failure.body.error.reason) || failure.message}`);
    } else if (failure.status === 409) {
      toast(t("stale"));
      await refresh().catch(() => {});
    } else toast(failure.message);
  } finally {
    S.busy = false;
    catchUp();
  }
}

export async function answerProposal(accept) {
  const pending = S.game?.pending;
  if (!pending) return;
  S.busy = true;
  try {
    const path = `/api/games/${S.game.id}/proposals/${pending.id}/${accept ? "accept" : "decline"}`;
    const { data } = await api(path, { version: S.game.version, player: S.game.viewer || undefined });
    if (accept && data.ruling) S.ruling = { ruling: data.ruling, events: data.events || [], note: () => t("accepted") };
    else S.ruling = null;
    if (!accept) toast(t("declined"));
    await receive(data);
  } catch (failure) {
    if (failure.ruling) S.ruling = { ruling: failure.ruling, events: [], note: () => t("nothing_applied") };
    else toast(failure.message);
    await refresh().catch(() => {});
  } finally {
    S.busy = false;
    catchUp();
  }
}
