// The API of mhp serve: one call, its JSON answer or a failure that says why.

import { pick, seatKeys, t } from "./state.js";

// --- The API -------------------------------------------------------------------------------

export class ApiFailure extends Error {
  constructor(status, body) {
    // A refusal that speaks both languages (an old access token) is shown in the page's.
    super(pick(body?.error?.reason) || body?.error?.message || body?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
  get ruling() {
    const b = this.body;
    return b.ruling || b.error?.ruling || b.error?.details?.ruling || b.details?.ruling || null;
  }
}

export async function api(path, body, method) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  // The seats this phone holds in the game asked about: their secrets go with every request.
  const game = path.match(/^\/api\/games\/([0-9a-f]{8})(?:[/?]|$)/);
  const secrets = game ? Object.values(seatKeys(game[1])).filter((s) => typeof s === "string") : [];
  if (secrets.length) options.headers["X-Mhp-Seat"] = secrets.slice(0, 5).join(",");
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiFailure(0, { error: { message: t("offline") } });
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: { message: text.slice(0, 300) } };
  }
  if (!response.ok) throw new ApiFailure(response.status, data);
  return { status: response.status, data };
}
