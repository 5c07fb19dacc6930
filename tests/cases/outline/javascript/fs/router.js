// A tiny request router.
import { parse } from "node:url";

const METHODS = ["GET", "POST", "PUT", "DELETE"];
let routeCount = 0;

export class Router {
  #routes = new Map();
  static instances = 0;

  constructor(prefix) {
    this.prefix = prefix;
    Router.instances += 1;
  }

  add(method, path, handler) {
    if (!METHODS.includes(method)) {
      throw new Error(`unknown method ${method}`);
    }
    this.#routes.set(`${method} ${this.prefix}${path}`, handler);
    routeCount += 1;
  }

  get size() {
    return this.#routes.size;
  }

  async handle(request) {
    const { pathname } = parse(request.url);
    const handler = this.#routes.get(`${request.method} ${pathname}`);
    return handler ? handler(request) : notFound(request);
  }
}

function notFound(request) {
  return { status: 404, body: `no route for ${request.url}` };
}

export const json = (status, body) => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export default function createRouter(prefix = "") {
  return new Router(prefix);
}

function* routesOf(router) {
  for (const key of router.keys()) {
    yield key;
  }
}
