// The card preview: the chosen face as a PNG, drawn again after each save of the catalog.

const $ = (id) => document.getElementById(id);
const state = { version: 0, cards: [] };

async function getJson(path) {
  const answer = await fetch(path, { headers: { Accept: "application/json" } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

function showCards(cards) {
  const select = $("card");
  const chosen = select.value || new URLSearchParams(location.search).get("card");
  const same = cards.length === state.cards.length && cards.every((c, i) => c.id === state.cards[i].id && c.name === state.cards[i].name);
  state.cards = cards;
  if (!same) {
    select.replaceChildren(
      ...cards.map((card) => {
        const option = document.createElement("option");
        option.value = card.id;
        option.textContent = `${card.deck} · ${card.name} (${card.id})`;
        return option;
      }),
    );
  }
  if (chosen && cards.some((card) => card.id === chosen)) select.value = chosen;
}

function showErrors(errors) {
  $("errors").hidden = errors.length === 0;
  $("error-list").replaceChildren(
    ...errors.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }),
  );
}

function showPicture() {
  const card = $("card").value;
  if (!card) return;
  const query = new URLSearchParams({ card, side: $("side").value, lang: $("lang").value, v: String(state.version) });
  $("picture").src = `/api/preview/card.png?${query}`;
  $("picture").alt = `${card} (${$("side").value})`;
  $("caption").textContent = `${card} · ${$("side").value} · version ${state.version}`;
  const url = new URL(location.href);
  url.searchParams.set("card", card);
  history.replaceState(null, "", url);
}

function show(next) {
  $("directory").textContent = next.directory;
  showCards(next.cards);
  showErrors(next.errors);
  if (next.valid && next.version !== state.version) {
    state.version = next.version;
    showPicture();
  } else if (!state.version) {
    state.version = next.version;
    showPicture();
  }
  document.body.dataset.version = String(next.version);
}

async function main() {
  show(await getJson("/api/preview"));
  for (const id of ["card", "side", "lang"]) $(id).addEventListener("change", showPicture);
  const events = new EventSource("/api/preview/events");
  events.addEventListener("change", (event) => show(JSON.parse(event.data)));
  events.addEventListener("open", () => $("live").classList.remove("off"));
  events.addEventListener("error", () => $("live").classList.add("off"));
}

main().catch((error) => {
  showErrors([String(error)]);
});
