// Drawing the table: the field, the fight, the actions, the hand, players, missions.

import { cardNode, cardText, colour, colourName, dot, isHidden, rawInfo } from "./cards.js";
import { showScore } from "./dialogs.js";
import { closeSheet, formulaNode, h, hill, openSheet } from "./dom.js";
import { answerProposal, fightActor, play } from "./game.js";
import { ruleChip, showRuling } from "./rulings.js";
import { $, FOLD, KIND_ORDER, S, capital, pick, t } from "./state.js";

// --- Drawing the table -----------------------------------------------------------------------

export const cellKey = (x, y) => `${x},${y}`;
/** Width in px of the field's first column, the row numbers. */
const COORD = 22;
export const cellLabel = ([x, y]) => `(${x}, ${y})`;

export function legalOf(kind) {
  return (S.legal?.actions || []).filter((item) => item.kind === kind);
}

export function renderTable() {
  const game = S.game;
  if (!game?.state) return;
  const state = game.state;
  renderStatus(game);
  renderEnd(game);
  renderOffer(game);
  showRuling("ruling", S.ruling?.ruling, S.ruling || {});
  renderField(state);
  renderFight(state);
  renderActions(game);
  renderHand(state, game.viewer);
  renderPlayers(state);
  renderMissions(state);
  renderSupply(state);
  renderInstallations(state);
}

export function renderStatus(game) {
  const state = game.state;
  const mine = game.viewer === game.turn;
  $("status").replaceChildren(
    state.ended
      ? h("span", { class: "who" }, t("game_over"))
      : h("span", { class: "who", dataset: { turn: game.turn } }, t("turn_of"), ": ", dot(game.turn), colourName(game.turn), mine ? h("span", { class: "chip" }, t("your_turn")) : null),
    h("span", { class: "meta" }, `${t("levels")[state.level] || state.level} · ${t("round", state.round)} · ${t("version", game.version)}`),
    game.viewer ? h("span", { class: "meta" }, t("you_see", colourName(game.viewer))) : null,
  );
}

export function renderEnd(game) {
  $("end-banner")?.remove();
  const end = game.end;
  if (!end) return;
  // The end and its winners, on top of the table.
  $("status").after(
    h(
      "div",
      { class: "end-banner", id: "end-banner", dataset: { code: end.code } },
      h("h2", {}, t("game_over")),
      h("p", {}, capital(pick(end.reason))),
      h("p", { id: "end-winners" }, h("b", {}, `${t("winners", (end.winners || []).length)}: `), (end.winners || []).map((w) => [dot(w), " ", colourName(w), " "])),
      h("div", { class: "rules" }, (end.rules || []).map(ruleChip)),
      h("button", { type: "button", class: "secondary", onclick: showScore }, t("score")),
    ),
  );
}

export function renderOffer(game) {
  const box = $("trade-offer");
  const pending = game.pending;
  if (!pending) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const mine = game.viewer === pending.to || (S.seat === "pass" && S.confirmed === pending.to);
  box.replaceChildren(
    h("p", {}, h("b", {}, t("proposal_from", colourName(pending.from), colourName(pending.to, "dat")))),
    h("p", { class: "offer-text" }, describe({ kind: pending.action.kind, action: pending.action, text: pending.text })),
    mine
      ? h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "secondary", id: "decline", onclick: () => answerProposal(false) }, t("decline")),
          h("button", { type: "button", class: "primary", id: "accept", onclick: () => answerProposal(true) }, t("accept")),
        )
      : h("p", { class: "hint" }, t("proposal_wait", colourName(pending.to, "gen"))),
  );
  box.hidden = false;
}

export function renderField(state) {
  const wrap = $("field-wrap");
  const field = state.field;
  if (!field) {
    wrap.hidden = true;
    return;
  }
  wrap.hidden = false;
  const cells = new Map(field.cells.map((cell) => [cellKey(cell.x, cell.y), cell]));
  const base = field.base;
  const xs = [base[0], ...field.cells.map((c) => c.x)];
  const ys = [base[1], ...field.cells.map((c) => c.y)];
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const columns = x1 - x0 + 1;
  // Fit the field to the phone's width, but never under a 44 px tap target: a wider field
  // scrolls sideways in its frame. A narrow first column carries the row numbers.
  const room = Math.min(window.innerWidth, 720) - 36 - COORD;
  const size = Math.max(44, Math.min(52, Math.floor((room - columns * 3) / columns)));
  const grid = $("field");
  grid.style.setProperty("--cell", `${size}px`);
  grid.style.gridTemplateColumns = `${COORD}px repeat(${columns}, ${size}px)`;
  const combines = new Map();
  for (const player of state.players) {
    if (!player.combine) continue;
    const key = cellKey(...player.combine.position);
    combines.set(key, [...(combines.get(key) || []), player]);
  }
  const moves = legalOf("move");
  const ends = new Map();
  for (const item of moves) {
    const path = item.action.path;
    const key = cellKey(...path[path.length - 1]);
    ends.set(key, [...(ends.get(key) || []), item]);
  }
  // The loser of a fight taps the cell to retreat to.
  for (const item of myRetreats()) if (item.action.cell) ends.set(cellKey(...item.action.cell), [item]);
  const picked = S.picked;
  // Coordinates on the edges, as the buttons and rulings write cells: x along the top, y down
  // the side.
  const nodes = [h("span", { class: "coord corner", "aria-hidden": "true" })];
  for (let x = x0; x <= x1; x += 1) nodes.push(h("span", { class: "coord coord-x", "aria-hidden": "true", dataset: { x } }, String(x)));
  for (let y = y0; y <= y1; y += 1) {
    nodes.push(h("span", { class: "coord coord-y", "aria-hidden": "true", dataset: { y } }, String(y)));
    for (let x = x0; x <= x1; x += 1) {
      const key = cellKey(x, y);
      const cell = cells.get(key);
      const isBase = base[0] === x && base[1] === y;
      if (!cell && !isBase) {
        nodes.push(h("span", { class: "gap", "aria-hidden": "true" }));
        continue;
      }
      const here = combines.get(key) || [];
      const classes = ["cell", isBase ? "base" : cell.raw ? "raw" : "empty"];
      if (ends.has(key)) classes.push("legal");
      if (picked && picked.key === key) classes.push("picked");
      if (picked && picked.steps.has(key)) classes.push("step");
      const label = `${cellLabel([x, y])}${isBase ? " Base" : ""}${cell?.raw ? " ●" : ""}${here.length ? ` ${here.map((p) => colourName(p.id)).join(", ")}` : ""}`;
      nodes.push(
        h(
          "button",
          {
            type: "button",
            class: classes.join(" "),
            dataset: { x, y },
            "aria-label": label,
            title: label,
            onclick: () => tapCell(x, y),
          },
          here.map((p) =>
            h("span", { class: `combine${here.length > 2 ? " n3" : here.length > 1 ? " n2" : ""}`, style: `background:${colour(p.id).rgb}`, dataset: { player: p.id } }),
          ),
        ),
      );
    }
  }
  grid.replaceChildren(...nodes);
  const mine = S.game.viewer === S.game.turn;
  $("field-hint").textContent = myRetreats().length
    ? t("fight_retreat_choose")
    : mine && !state.ended && !state.fight
      ? moves.length
        ? t("tap_cell")
        : t("tap_cell_done")
      : "";
  renderPathChoice();
}

/** A tapped cell: the move that ends there; several ways: choose; none: ask the referee anyway. */
export function tapCell(x, y) {
  if (!S.game || S.game.state.ended) return;
  const key = cellKey(x, y);
  if (S.game.state.fight) {
    const retreat = myRetreats().find((item) => item.action.cell && cellKey(...item.action.cell) === key);
    if (retreat) return play(retreat.action, { label: retreat.text });
    if (S.game.state.fight.winner) return; // the spoils or the retreat: chosen in the fight panel
  }
  const options = legalOf("move").filter((item) => {
    const path = item.action.path;
    return cellKey(...path[path.length - 1]) === key;
  });
  if (options.length === 1) return playMove(options[0]);
  if (options.length > 1) {
    const steps = new Set(options.flatMap((item) => item.action.path.slice(0, -1).map((p) => cellKey(...p))));
    S.picked = { key, options, steps };
    renderField(S.game.state);
    return;
  }
  // Not a listed move: the referee says why (nothing is applied).
  return play(`move ${x},${y}`, { label: `move ${x},${y}` });
}

/** The players a move ending on ``key`` attacks: other combines there, off the Base. */
function attackedAt(key) {
  const state = S.game.state;
  const base = state.field?.base;
  if (base && cellKey(...base) === key) return [];
  const mover = state.players[state.turn].id;
  return state.players.filter((p) => p.id !== mover && p.combine && cellKey(...p.combine.position) === key);
}

/** Play a move; one that attacks asks first: a fight is rolled at once and cannot be undone. */
export function playMove(item) {
  const path = item.action.path;
  const foes = attackedAt(cellKey(...path[path.length - 1]));
  if (!foes.length) return play(item.action, { label: item.text });
  const names = foes.map((p) => colourName(p.id, "acc")).join(", ");
  openSheet(
    t("attack_title"),
    h(
      "div",
      { id: "attack-sheet" },
      h("p", { id: "attack-question" }, foes.map((p) => dot(p.id)), " ", t("attack_confirm", names)),
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", class: "secondary big", id: "attack-cancel", onclick: closeSheet }, t("cancel")),
        h("button", { type: "button", class: "primary big", id: "attack-confirm", onclick: () => { closeSheet(); play(item.action, { label: item.text }); } }, t("attack_yes")),
      ),
    ),
  );
}

export function renderPathChoice() {
  const box = $("path-choice");
  const picked = S.picked;
  if (!picked) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("span", { class: "hint" }, t("choose_path")),
    ...picked.options.map((item) => {
      const path = item.action.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return h("button", { type: "button", onclick: () => playMove(item) }, via ? t("via", via) : t("move_to", cellLabel(path[path.length - 1])));
    }),
    h("button", { type: "button", class: "secondary", onclick: () => { S.picked = null; renderField(S.game.state); } }, t("cancel")),
  );
  box.hidden = false;
}

/** This phone's choices of the fight's next step (the spoils or the retreat), if it takes it. */
export function myFightChoices(kind) {
  const actor = fightActor(S.game?.state);
  return actor && S.game.viewer === actor ? legalOf(kind) : [];
}
const myRetreats = () => myFightChoices("retreat");

export function renderFight(state) {
  const panel = $("fight-panel");
  const fight = state.fight;
  if (!fight || state.ended) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  panel.className = "panel fight";
  const head = [
    h("h2", {}, t("fight_title")),
    h("p", {}, dot(fight.attacker), " ", t("fight_vs", colourName(fight.attacker), colourName(fight.defender, "acc")), " ", dot(fight.defender)),
  ];
  if (fight.winner) {
    // After the dice: the winner's spoils, then the loser's retreat, each on its own phone.
    const last = fight.rounds[fight.rounds.length - 1] || [];
    const loser = fight.winner === fight.attacker ? fight.defender : fight.attacker;
    const choosing = fight.taken === null || fight.taken === undefined;
    const actor = choosing ? fight.winner : loser;
    const mine = S.game.viewer === actor;
    const kind = choosing ? "spoils" : "retreat";
    const choices = mine ? legalOf(kind) : [];
    const parts = [
      ...head,
      h("p", { id: "fight-result" }, dot(fight.winner), " ", t("fight_won", colourName(fight.winner), last.join(":"))),
      choosing ? null : h("p", {}, t("fight_took", colourName(fight.winner), fight.taken)),
      mine
        ? h("p", { class: "hint", id: "fight-step" }, t(choosing ? "fight_spoils_choose" : "fight_retreat_choose"))
        : h("p", { class: "hint", id: "fight-step" }, t(choosing ? "fight_spoils_wait" : "fight_retreat_wait", colourName(actor, "gen"))),
      choices.length
        ? h(
            "div",
            { class: "buttons fight-choices", id: `fight-${kind}` },
            choices.map((item) =>
              h(
                "button",
                { type: "button", dataset: { action: item.text, kind, cards: (item.action.cards || []).join(" ") }, onclick: () => play(item.action, { label: item.text }) },
                capital(describe(item)),
              ),
            ),
          )
        : null,
    ];
    panel.replaceChildren(...parts.filter(Boolean));
    panel.hidden = false;
    return;
  }
  const looking = S.game?.viewer;
  if (looking && looking !== fight.attacker && looking !== fight.defender) {
    panel.replaceChildren(...head, h("p", { class: "hint", id: "fight-step" }, t("fight_dice_wait")));
    panel.hidden = false;
    return;
  }
  const defender = state.players.find((p) => p.id === fight.defender);
  const armoured = Boolean(defender?.combine?.armour);
  // The defender's own phone resolves the fight as the defender (the attacker's seat may be
  // another phone's); the attacker acts as the player whose turn it is.
  const viewer = S.game?.viewer;
  const as = viewer && viewer !== fight.attacker && viewer === fight.defender ? viewer : undefined;
  const rolls = { a: 0, d: 0, d2: 0 };
  const picker = (key) => {
    const row = h("div", { class: "die-pick", role: "group" });
    for (let n = 1; n <= 6; n += 1) {
      row.append(
        h(
          "button",
          {
            type: "button",
            "aria-pressed": "false",
            dataset: { die: key, value: n },
            onclick: (event) => {
              rolls[key] = n;
              for (const b of row.children) b.setAttribute("aria-pressed", String(b === event.currentTarget));
              enter.disabled = !(rolls.a && rolls.d && (!armoured || rolls.d2));
            },
          },
          String(n),
        ),
      );
    }
    return row;
  };
  const enter = h(
    "button",
    {
      type: "button",
      class: "secondary big",
      id: "fight-enter",
      disabled: true,
      onclick: () => play(`${as ? `as ${as} ` : ""}fight ${rolls.a}:${rolls.d}${armoured ? `,${rolls.d2}` : ""}`),
    },
    t("fight_enter"),
  );
  panel.replaceChildren(
    ...head,
    h("button", { type: "button", class: "primary big", id: "fight-roll", onclick: () => play({ kind: "fight", player: as }) }, "🎲 ", t("fight_roll")),
    h("p", { class: "hint" }, t("fight_real")),
    h(
      "div",
      { class: "dice" },
      h("label", {}, t("attacker"), picker("a")),
      h("label", {}, t("defender"), picker("d")),
      armoured ? h("label", {}, t("defender_second"), picker("d2")) : null,
    ),
    enter,
  );
  panel.hidden = false;
}

/** An action in words, with the cards by formula and name. */
export function describe(item) {
  const a = item.action;
  const cards = (list) => (list || []).map(cardText).join(", ");
  switch (item.kind) {
    case "move": {
      const path = a.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return `${t("move_to", cellLabel(path[path.length - 1]))}${via ? ` ${t("via", via)}` : ""}`;
    }
    case "sell":
      return `${cardText(a.card)} → ${t("sell_to_bank")}`;
    case "warehouse":
      return `${cardText(a.card)} ${t("from_warehouse")}`;
    case "buy":
      return a.upgrade === "solar-battery" ? t("solar_battery") : t("armour_up");
    case "take": {
      const pile = S.game?.state?.piles?.[a.pile - 1] || [];
      const top = pile.length ? pile[pile.length - 1] : null;
      return top && !isHidden(top) ? `${t("take_pile", a.pile)}: ${cardText(top)}` : t("take_pile", a.pile);
    }
    case "keep": {
      // Head to head the installation kept is the game's one choice of its own: name it (its
      // reaction is in the installations panel).
      const info = (S.catalog?.installations || []).find((i) => i.number === a.installation);
      const label = t("keep_installation", a.installation);
      return info ? `${label}: ${pick(info.name)}` : label;
    }
    case "pick":
      return cardText(a.card);
    case "react":
      return `${t("react_on", a.installation)}: ${cards(a.cards)}${a.missions?.length ? ` → ${a.missions.join(", ")}` : ""}`;
    case "free": {
      const place = a.product ? `${a.product.installation}:${a.product.card}:${a.product.container}` : "";
      const how = a.how === "dump" ? t("free_dump") : a.how === "sell-bank" ? t("free_bank", a.price) : t("free_to", colourName(a.partner, "dat"), a.price);
      return `${place} ${how}`;
    }
    case "trade": {
      const parts = [t("trade_with", colourName(a.partner, "ins"))];
      const give = [...(a.give || []).map(cardText), ...(a.give_product ? [`${a.give_product.installation}:${a.give_product.card}:${a.give_product.container}`] : [])];
      const get = [...(a.receive || []).map(cardText), ...(a.get_product ? [`${a.get_product.installation}:${a.get_product.card}:${a.get_product.container}`] : [])];
      if (give.length) parts.push(`${t("give")} ${give.join(", ")}`);
      if (get.length) parts.push(`${t("get")} ${get.join(", ")}`);
      if (a.pay) parts.push(`${t("pay")} ${a.pay}`);
      return parts.join(" · ");
    }
    case "claim":
      return t("claim_mission", a.mission);
    case "fight":
      return a.rounds?.length ? `🎲 ${a.rounds.map((r) => r.join(":")).join(" ")}` : `🎲 ${t("fight_roll")}`;
    case "spoils":
      return a.cards?.length ? `${t("fight_take")}: ${cards(a.cards)}` : t("fight_take_none");
    case "retreat":
      return a.cell ? t("fight_retreat", cellLabel(a.cell)) : t("fight_stay");
    case "end":
      return t("end_turn");
    default:
      return item.text;
  }
}

/** What an action's button shows: a main line (formula, cell, partner) and a line below. */
export function actionContent(item) {
  const a = item.action;
  const two = (main, sub) => [h("span", { class: "a-main" }, main), sub ? h("span", { class: "a-sub" }, sub) : null];
  const card = (id) => {
    const info = rawInfo(id);
    return info && !isHidden(id) ? [formulaNode(info.formula), " ", h("span", { class: "a-name" }, pick(info.name))] : cardText(id);
  };
  switch (item.kind) {
    case "move": {
      const path = a.path;
      const via = path.slice(0, -1).map(cellLabel).join(" → ");
      return two(`→ ${cellLabel(path[path.length - 1])}`, via ? t("via", via) : "");
    }
    case "sell":
    case "warehouse":
    case "pick":
      return two(card(a.card), "");
    case "take": {
      const pile = S.game?.state?.piles?.[a.pile - 1] || [];
      const top = pile.length ? pile[pile.length - 1] : null;
      return two(t("take_pile", a.pile), top && !isHidden(top) ? card(top) : `${pile.length}`);
    }
    case "trade": {
      const give = [...(a.give || []).map(cardText), ...(a.give_product ? [`${a.give_product.installation}:${a.give_product.card}:${a.give_product.container}`] : [])];
      const get = [...(a.receive || []).map(cardText), ...(a.get_product ? [`${a.get_product.installation}:${a.get_product.card}:${a.get_product.container}`] : [])];
      const lines = [give.length ? `${t("give")}: ${give.join(", ")}` : "", get.length ? `${t("get")}: ${get.join(", ")}` : ""].filter(Boolean).join(" · ");
      return two([dot(a.partner), " ", colourName(a.partner)], lines);
    }
    default:
      return two(describe(item), "");
  }
}

export function renderActions(game) {
  const box = $("actions");
  const state = game.state;
  if (state.ended) {
    $("actions-panel").hidden = true;
    return;
  }
  $("actions-panel").hidden = false;
  if (game.viewer !== game.turn && !state.fight) {
    box.replaceChildren(h("p", { class: "not-yours" }, t("not_your_turn", colourName(game.turn, "gen"))));
    return;
  }
  if (state.fight?.winner) {
    // The spoils and the retreat are chosen in the fight's panel, by their players.
    box.replaceChildren(h("p", { class: "not-yours" }, t("fight_first")));
    return;
  }
  const actions = S.legal?.actions || [];
  // A usual button the referee does not allow now (ending the turn with a full combine): in its
  // place, the referee's reason and its rules, so nothing disappears without a word.
  const refused = (S.legal?.refused || []).map((item) =>
    h(
      "div",
      { class: "group refused", dataset: { kind: item.kind } },
      h("h3", {}, `${t("kinds")[item.kind] || item.kind} · ${t("not_now")}`),
      h("p", { class: "refused-why" }, capital(pick(item.ruling.reason))),
      h("div", { class: "rules" }, (item.ruling.rules || []).map(ruleChip)),
    ),
  );
  if (!actions.length) {
    box.replaceChildren(...(refused.length ? refused : [h("p", { class: "not-yours" }, t("no_actions"))]));
    return;
  }
  const groups = new Map();
  for (const item of actions) groups.set(item.kind, [...(groups.get(item.kind) || []), item]);
  const kinds = [...groups.keys()].sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b));
  box.replaceChildren(
    ...kinds.map((kind) => {
      const items = groups.get(kind);
      const buttons = h("div", { class: "buttons" });
      const add = (list) =>
        list.forEach((item) =>
          buttons.append(
            h(
              "button",
              {
                type: "button",
                class: kind === "end" ? "primary action-end" : "",
                dataset: { action: item.text, kind },
                onclick: () =>
                  kind === "trade" || (kind === "free" && item.action.how === "sell-player")
                    ? proposeTrade(item)
                    : kind === "move"
                      ? playMove(item)
                      : play(item.action, { label: item.text }),
              },
              actionContent(item),
            ),
          ),
        );
      add(items.slice(0, FOLD));
      if (items.length > FOLD) {
        const more = h("button", { type: "button", class: "more", onclick: () => { more.remove(); add(items.slice(FOLD)); } }, t("show_all", items.length));
        buttons.append(more);
      }
      return h("div", { class: "group", dataset: { kind } }, h("h3", {}, t("kinds")[kind] || kind), buttons);
    }),
    ...refused,
  );
}

/** A trade or a sale to a player: the price is agreed at the table, the partner accepts it. */
export function proposeTrade(item) {
  const isTrade = item.kind === "trade";
  const input = h("input", { type: "number", inputmode: "numeric", step: "1", value: String(isTrade ? item.action.pay || 0 : item.action.price || 0), id: "trade-price" });
  const send = () => {
    const price = Number(input.value || 0);
    const action = isTrade ? { ...item.action, pay: price } : { ...item.action, price };
    closeSheet();
    play(action, { label: item.text });
  };
  openSheet(
    isTrade ? t("trade_with", colourName(item.action.partner, "ins")) : t("kinds").free,
    h(
      "div",
      {},
      h("p", {}, describe(item)),
      h("label", { class: "search" }, h("span", {}, t("price")), input),
      isTrade ? h("p", { class: "hint" }, t("price_hint")) : null,
      h("button", { type: "button", class: "primary big", id: "trade-send", onclick: send }, t("propose")),
    ),
  );
}

export function renderHand(state, viewer) {
  const panel = $("hand-panel");
  const me = viewer && state.players.find((p) => p.id === viewer);
  if (!me) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.replaceChildren(
    h("h2", {}, dot(me.id), " ", t("hand"), ` · ${me.money} ${t("money")}`),
    me.raw_cards.length ? h("div", { class: "cards", id: "hand" }, me.raw_cards.map((c) => cardNode(c))) : h("p", { class: "hint" }, t("hand_empty")),
  );
}

export function renderPlayers(state) {
  const items = state.players.map((player, index) => {
    const combine = player.combine;
    const gear = [combine?.solar_battery ? `☀ ${t("battery")}` : "", combine?.armour ? `⛨ ${t("armour")}` : ""].filter(Boolean).join(" · ");
    const where = combine ? (state.field && combine.position[0] === state.field.base[0] && combine.position[1] === state.field.base[1] ? t("at_base") : cellLabel(combine.position)) : "";
    return h(
      "li",
      { class: index === state.turn ? "current" : "", dataset: { player: player.id } },
      dot(player.id),
      h("span", { class: "name" }, colourName(player.id), where ? h("span", { class: "stat" }, ` · ${where}`) : null, gear ? h("div", { class: "gear stat" }, gear) : null),
      h("span", { class: "stat" }, `${player.money} ${t("money")}`),
      h("span", { class: "stat" }, t("cards_n", player.raw_cards.length)),
      state.level !== "1" ? h("span", { class: "stat" }, t("tokens_n", player.tokens)) : null,
    );
  });
  $("players-panel").replaceChildren(h("h2", {}, t("players_title")), h("ul", { class: "players" }, items));
}

export function renderMissions(state) {
  const panel = $("mission-panel");
  const catalogMissions = new Map((S.catalog?.missions || []).map((m) => [m.id, m]));
  let list;
  if (state.level === "1") {
    list = [...catalogMissions.values()].map((m) =>
      h(
        "div",
        { class: `mission${(state.claims || []).some(([, id]) => id === m.id) ? " complete" : ""}`, dataset: { mission: m.id } },
        h("span", { class: "id" }, m.id),
        h("b", {}, pick(m.name)),
        h("div", { class: "target" }, formulaNode(hill(m.elements))),
      ),
    );
    list.unshift(h("p", { class: "hint" }, t("mission_l1_hint")));
  } else {
    list = state.missions.map((m) => {
      const info = catalogMissions.get(m.id);
      const complete = m.places.every(([, tokens]) => tokens.every(Boolean));
      return h(
        "div",
        { class: `mission${complete ? " complete" : ""}`, dataset: { mission: m.id } },
        h("span", { class: "id" }, m.id),
        h("b", {}, info ? pick(info.name) : ""),
        h(
          "div",
          { class: "places" },
          m.places.map(([formula, tokens]) => h("span", { class: "place" }, formulaNode(formula), tokens.map((tok) => (tok ? dot(tok) : h("span", { class: "slot" }))))),
        ),
      );
    });
  }
  panel.replaceChildren(h("h2", {}, t("mission_card")), h("div", { class: "missions" }, list));
}

export function renderSupply(state) {
  const boxes = [h("div", { class: "box", id: "bank" }, t("bank"), h("br"), h("b", {}, state.bank), ` ${t("money")}`)];
  if (state.field) {
    const left = state.field.cells.filter((c) => c.raw).length;
    boxes.push(h("div", { class: "box" }, t("field_left"), h("br"), h("b", {}, left)));
  }
  const parts = [h("h2", {}, state.field ? t("supply") : t("supply_piles")), h("div", { class: "supply" }, boxes)];
  if (state.level !== "2" && state.level !== "1v1") {
    parts.push(h("h3", {}, `${t("warehouse")} · ${state.warehouse.length}`), h("div", { class: "cards", id: "warehouse" }, state.warehouse.map((c) => cardNode(c))));
  }
  if (state.piles.length) {
    parts.push(
      h("h3", {}, t("piles")),
      h(
        "div",
        { class: "cards" },
        state.piles.map((pile, i) =>
          h("div", { class: "pile" }, h("div", { class: "hint" }, `${t("pile", i + 1)} · ${pile.length}`), pile.length ? cardNode(pile[pile.length - 1]) : h("span", { class: "card" }, "—")),
        ),
      ),
    );
  }
  if (state.discard.length) parts.push(h("p", { class: "hint" }, `${t("discard")}: ${state.discard.length}`));
  $("supply-panel").replaceChildren(...parts);
}

export function renderInstallations(state) {
  const panel = $("installations-panel");
  if (!state.installations.length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const names = new Map((S.catalog?.installations || []).map((i) => [i.number, i]));
  // The viewer's own installations first, then the other players', then the shared ones.
  const rank = (inst) => (inst.owner === S.game.viewer ? 0 : inst.owner ? 1 : 2);
  panel.replaceChildren(
    h("h2", {}, t("installations")),
    ...[...state.installations]
      .sort((a, b) => rank(a) - rank(b) || a.number - b.number)
      .map((inst) => {
      const info = names.get(inst.number);
      return h(
        "div",
        { class: "installation", dataset: { installation: inst.number } },
        h("b", {}, `${inst.number}. ${info ? pick(info.name) : ""}`),
        " ",
        h("span", { class: "chip" }, inst.owner ? [dot(inst.owner), " ", t("owner", colourName(inst.owner, "gen"))] : t("shared")),
        info?.reaction ? h("div", { class: "arr" }, info.reaction) : null,
        h(
          "div",
          { class: "places" },
          inst.containers
            .filter((c) => c.role === "product")
            .map((c) => h("span", { class: "place", title: `${inst.number}:${c.card}:${c.index}` }, formulaNode(c.substance), c.places.map((tok) => (tok ? dot(tok) : h("span", { class: "slot" }))))),
        ),
      );
    }),
  );
}
