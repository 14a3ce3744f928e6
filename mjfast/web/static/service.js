// Requests to the mjfast JSON service that served the page (docs/protocol.md): POST to the
// page's own address, on its own origin. A request still unanswered after a few seconds is
// reported, so that the page can say why it waits (a value answer far from ready or a game's
// review takes seconds; the first use of a kernel compiles it).

export class ServiceError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const SLOW_MS = 700; // a value answer far from ready, or a review, takes seconds: say so
let pending = 0;
let slowTimer = null;
let onSlow = () => {};

export function whenSlow(callback) {
  onSlow = callback;
}

// document.body's data-pending: requests under way (the tests wait for 0)
function started() {
  pending += 1;
  document.body.dataset.pending = String(pending);
  if (slowTimer === null) slowTimer = setTimeout(() => onSlow(true), SLOW_MS);
}

function ended() {
  pending -= 1;
  document.body.dataset.pending = String(pending);
  if (pending === 0) {
    clearTimeout(slowTimer);
    slowTimer = null;
    onSlow(false);
  }
}

// The result of operation `op`, or a ServiceError with the service's code and message
// ("network" when there is no answer).
export async function ask(op, params = {}) {
  started();
  try {
    let response;
    try {
      response = await fetch(location.pathname, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ op, ...params }),
      });
    } catch (error) {
      throw new ServiceError("network", error.message);
    }
    let answer;
    try {
      answer = await response.json();
    } catch {
      throw new ServiceError("network", `HTTP ${response.status}`);
    }
    if (answer.error) throw new ServiceError(answer.error.code, answer.error.message);
    return answer.result;
  } finally {
    ended();
  }
}
