// The log, the score and the seat, in a sheet over the table.

import { api } from "./api.js";
import { cardsInText, colourName, dot } from "./cards.js";
import { closeSheet, h, openSheet, setSheet, toast } from "./dom.js";
import { elsewhere, refresh, setSeat, takeSeat } from "./game.js";
import { joinNode, loadJoin } from "./home.js";
import { ruleChip } from "./rulings.js";
import { $, S, capital, pick, seatKeys, t } from "./state.js";

// --- The log, the score, the seat ------------------------------------------------------------

export async function showLog() {
  if (!S.game) return;
  openSheet(t("log"), h("p", { class: "hint" }, t("rule_loading")));
  try {
    const viewer = S.game.viewer ? `?player=${encodeURIComponent(S.game.viewer)}` : "";
    const { data } = await api(`/api/games/${S.game.id}/log${viewer}`);
    const entries = data.entries || [];
    setSheet(
      t("log"),
      entries.length
        ? h(
            "ol",
            { class: "log", id: "log" },
            [...entries].reverse().map((entry) =>
              h(
                "li",
                { dataset: { seq: entry.seq } },
                h("div", {}, h("b", {}, `${entry.seq}. `), dot(entry.player), " ", h("span", { class: "text" }, entry.text)),
                h("div", { class: "hint" }, cardsInText(pick(entry.ruling?.reason))),
                (entry.events || []).length ? h("ul", { class: "events" }, entry.events.map((e) => h("li", {}, cardsInText(pick(e))))) : null,
                h("div", { class: "rules" }, (entry.ruling?.rules || []).map(ruleChip)),
              ),
            ),
          )
        : h("p", { class: "hint" }, t("log_empty")),
    );
  } catch (error) {
    setSheet(t("log"), h("p", { class: "form-error" }, error.message));
  }
}

/** A score line's words (the server writes them in English) in the page's language. */
export function scoreWhat(what) {
  let m = what.match(/^(\d+) raw cards$/);
  if (m) return t("score_raw", Number(m[1]));
  if (what === "money") return t("score_money");
  m = what.match(/^(\S+) on (\S+) \(installation (\d+)\)$/);
  if (m) return t("score_product", m[1], m[2], m[3]);
  m = what.match(/^(\S+) on mission (\S+)(.*)$/);
  if (m) return t("score_mission", m[1], m[2], m[3].trim());
  return what;
}

export async function showScore() {
  if (!S.game) return;
  let data = S.game.score ? { ...S.game.score, end: S.game.end } : null;
  try {
    data = (await api(`/api/games/${S.game.id}/score`)).data;
  } catch {
    /* the score that came with the game will do */
  }
  if (!data) return;
  const winners = new Set(data.winners || []);
  const rows = [];
  for (const player of Object.keys(data.totals || {})) {
    const lines = (data.lines || []).filter((line) => line.player === player);
    rows.push(
      h(
        "tr",
        { class: winners.has(player) ? "winner" : "", dataset: { player } },
        h("th", { colspan: 2 }, dot(player), " ", colourName(player)),
        h("th", { class: "num" }, String(data.totals[player])),
      ),
      ...lines.map((line) => h("tr", {}, h("td", {}, scoreWhat(line.what)), h("td", {}, ruleChip(line.rule)), h("td", { class: "num" }, String(line.value)))),
    );
  }
  const end = data.end;
  openSheet(
    t("score_title"),
    h(
      "div",
      { id: "score" },
      end ? h("div", { class: "end-banner" }, h("h2", {}, t("game_over")), h("p", {}, capital(pick(end.reason))), h("div", { class: "rules" }, (end.rules || []).map(ruleChip))) : null,
      h("p", {}, h("b", {}, `${end ? t("winners", winners.size ?? winners.length) : t("leading")}: `), [...winners].map((w) => [dot(w), " ", colourName(w), " "])),
      h("table", { class: "score-table" }, h("tbody", {}, rows)),
      data.ruling ? h("p", { class: "hint" }, pick(data.ruling.reason)) : null,
      data.ruling ? h("div", { class: "rules" }, (data.ruling.rules || []).map(ruleChip)) : null,
    ),
  );
}

export async function showSeat() {
  if (!S.game) return;
  const id = S.game.id;
  const join = await loadJoin();
  const players = S.game.players || S.game.state?.players.map((p) => p.id) || [];
  const keys = seatKeys(id);
  const choose = async (seat) => {
    // A colour is claimed for this phone (a seat another phone holds asks for its code).
    if (seat === "pass") setSeat(id, seat);
    else if (!(await takeSeat(id, seat))) return;
    closeSheet();
    refresh();
  };
  const held = S.seat && S.seat !== "pass" && keys[S.seat] ? S.seat : null;
  const note = (p) => (keys[p] ? t("seat_yours") : elsewhere(S.game, p) ? t("seat_taken") : "");
  openSheet(
    t("seat_title"),
    h(
      "div",
      { class: "choices", style: "flex-direction:column" },
      h("button", { type: "button", "aria-checked": String(S.seat === "pass"), role: "radio", onclick: () => choose("pass") }, t("seat_pass"), h("span", { class: "sub" }, t("seat_pass_hint"))),
      players.map((p) =>
        h(
          "button",
          { type: "button", role: "radio", "aria-checked": String(S.seat === p), dataset: { seat: p }, onclick: () => choose(p) },
          dot(p),
          " ",
          t("seat_one", colourName(p)),
          note(p) ? h("span", { class: "sub" }, note(p)) : null,
        ),
      ),
      held
        ? h(
            "div",
            { class: "seat-move", id: "seat-move-box" },
            h("h3", {}, t("move_title")),
            h("p", { class: "hint" }, t("move_hint", colourName(held, "gen"))),
            h("button", { type: "button", class: "secondary big", id: "seat-move", onclick: () => showMoveCode(held) }, t("move_get_code")),
          )
        : null,
      join ? [h("h3", {}, t("join")), joinNode(join)] : null,
    ),
  );
}

/** The code (and its QR code) that moves this phone's seat to another phone. */
async function showMoveCode(player) {
  const box = $("seat-move-box");
  try {
    const { data } = await api(`/api/games/${S.game.id}/seats/${encodeURIComponent(player)}/code`, {});
    box.replaceChildren(
      h("h3", {}, t("move_title")),
      h("p", { class: "hint" }, t("move_code_hint", colourName(player, "gen"), Math.round(data.seconds / 60))),
      h("p", { class: "move-code", id: "seat-code" }, data.code),
      h("div", { class: "qr", id: "seat-code-qr", html: data.qr_svg }),
    );
  } catch (failure) {
    toast(failure.message);
  }
}
