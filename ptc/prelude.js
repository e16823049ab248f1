// The prelude runs once in every fresh runtime, before the program. It
// receives the host bridge, defines the only globals a program gets
// (tools, console, ToolCallError, setTimeout, clearTimeout) and returns
// the helpers the host needs. The host object itself is never reachable
// from the program.
(function (host) {
  "use strict";

  class ToolCallError extends Error {
    constructor(toolName, code, message) {
      super(message);
      this.toolName = toolName;
      this.code = code;
    }
    get name() { return "ToolCallError"; }
  }

  const MAX_DEPTH = 4, MAX_ITEMS = 100, MAX_STRING = 10000, WIDTH = 72;

  function quote(s) {
    if (s.length > MAX_STRING) s = s.slice(0, MAX_STRING) + "... " + (s.length - MAX_STRING) + " more characters";
    return "'" + s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'";
  }

  function key(k) {
    if (typeof k === "symbol") return "[" + String(k) + "]";
    return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : quote(k);
  }

  function errorText(e) {
    let s = String(e.name) + ": " + String(e.message);
    if (e instanceof ToolCallError) s = "ToolCallError [" + e.code + " from " + e.toolName + "]: " + e.message;
    return s;
  }

  // group joins the parts of a container on one line when short, one per
  // line otherwise (like Node's util.inspect).
  function group(open, parts, close, indent) {
    if (parts.length === 0) return open.trimEnd() + close.trimStart();
    const flat = open + parts.join(", ") + close;
    if (flat.length <= WIDTH && !flat.includes("\n")) return flat;
    const pad = "  ".repeat(indent + 1);
    return open.trimEnd() + "\n" + parts.map(p => pad + p).join(",\n") + "\n" + "  ".repeat(indent) + close.trimStart();
  }

  function inspect(v, depth, seen, indent) {
    switch (typeof v) {
      case "string": return depth === 0 ? v : quote(v);
      case "bigint": return String(v) + "n";
      case "symbol": return String(v);
      case "function": {
        const cls = /^class\b/.test(Function.prototype.toString.call(v));
        return "[" + (cls ? "class " : "Function: ") + (v.name || "(anonymous)") + "]";
      }
      case "object": break;
      default: return String(v);
    }
    if (v === null) return "null";
    if (seen.includes(v)) return "[Circular]";
    if (v instanceof Error) return errorText(v);
    if (v instanceof Date) return isNaN(v) ? "Invalid Date" : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (v instanceof Promise) return "Promise { ... }";
    const isArr = Array.isArray(v);
    const ctor = Object.getPrototypeOf(v) === null ? null : v.constructor;
    const cname = ctor && typeof ctor.name === "string" ? ctor.name : "";
    if (depth > MAX_DEPTH) {
      return isArr ? "[Array]" : v instanceof Map ? "[Map]" : v instanceof Set ? "[Set]" : "[" + (cname || "Object") + "]";
    }
    seen = seen.concat([v]);
    const parts = [];
    const more = n => "... " + n + " more item" + (n === 1 ? "" : "s");
    const sub = x => inspect(x, depth + 1, seen, indent + 1);
    if (v instanceof Map) {
      let i = 0;
      for (const [k, x] of v) { if (i++ >= MAX_ITEMS) break; parts.push(sub(k) + " => " + sub(x)); }
      if (v.size > MAX_ITEMS) parts.push(more(v.size - MAX_ITEMS));
      return group("Map(" + v.size + ") { ", parts, " }", indent);
    }
    if (v instanceof Set) {
      let i = 0;
      for (const x of v) { if (i++ >= MAX_ITEMS) break; parts.push(sub(x)); }
      if (v.size > MAX_ITEMS) parts.push(more(v.size - MAX_ITEMS));
      return group("Set(" + v.size + ") { ", parts, " }", indent);
    }
    if (isArr) {
      const n = Math.min(v.length, MAX_ITEMS);
      for (let i = 0; i < n; i++) parts.push(i in v ? sub(v[i]) : "<empty>");
      if (v.length > MAX_ITEMS) parts.push(more(v.length - MAX_ITEMS));
      return group("[ ", parts, " ]", indent);
    }
    const keys = Object.keys(v);
    for (const k of keys.slice(0, MAX_ITEMS)) parts.push(key(k) + ": " + sub(v[k]));
    if (keys.length > MAX_ITEMS) parts.push(more(keys.length - MAX_ITEMS));
    const prefix = ctor === null ? "[Object: null prototype] " : cname && cname !== "Object" ? cname + " " : "";
    return prefix + group("{ ", parts, " }", indent);
  }

  const show = v => inspect(v, 0, [], 0);

  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = function (...args) { host.log(level, args.map(show).join(" ")); };
  }

  const tools = Object.create(null);
  for (const name of host.names) {
    tools[name] = function (args) {
      let raw;
      try {
        raw = JSON.stringify(args === undefined ? {} : args);
      } catch (e) {
        return Promise.reject(new TypeError("tools." + name + ": arguments must be JSON-serialisable: " + e.message));
      }
      if (raw === undefined) raw = "{}";
      return host.call(name, raw);
    };
  }
  Object.freeze(tools);

  Object.defineProperties(globalThis, {
    tools: { value: tools, enumerable: false },
    console: { value: Object.freeze(console), writable: true, configurable: true },
    ToolCallError: { value: ToolCallError, writable: true, configurable: true },
    setTimeout: { value: (fn, ms, ...args) => host.setTimeout(() => fn(...args), Number(ms) || 0), writable: true, configurable: true },
    clearTimeout: { value: id => host.clearTimeout(Number(id) || 0), writable: true, configurable: true },
  });

  // The originals of RegExp.prototype, for the engine's exec fast path
  // (taken before any program can replace them).
  const rxp = RegExp.prototype;
  const getter = n => Object.getOwnPropertyDescriptor(rxp, n).get;
  const regexp = { proto: rxp, exec: rxp.exec, compile: rxp.compile, source: getter("source") };
  for (const n of ["global", "ignoreCase", "multiline", "dotAll", "sticky", "unicode"]) regexp[n] = getter(n);

  return {
    ToolCallError,
    regexp,
    inspect: show,
    // serialize returns the JSON text of a return value, or undefined.
    serialize: v => (v === undefined ? undefined : JSON.stringify(v)),
    // describe names a thrown value for the failure message and returns
    // [text, stack] (stack "" when the value carries none).
    describe: e => {
      if (!(e instanceof Error)) return ["Uncaught " + show(typeof e === "string" ? quote(e) : e), ""];
      return [errorText(e), typeof e.stack === "string" ? e.stack : ""];
    },
  };
})
