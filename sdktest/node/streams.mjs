// Reads the streams in the case file (argv[2], written by sdktest's
// TestStreamsThroughNodeSDKs) with the npm SDKs' own stream helpers, each
// stream served on the loopback interface: openai's
// chat.completions.stream().finalChatCompletion() and
// responses.stream().finalResponse(), and @anthropic-ai/sdk's
// messages.stream().finalMessage(). It prints one line per case whose
// result differs from what the case wants, and exits 1 if there was one.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));

let body = "";
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(body);
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;

const openai = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
const anthropic = new Anthropic({ apiKey: "k", baseURL: base, maxRetries: 0 });

// view is what the SDK made of a stream: the text of each kind (runs joined
// by a blank line, each trimmed), the calls sorted, and the stop reason.
function view() {
  const v = { text: {}, calls: [], stop: "" };
  v.add = (kind, s) => {
    s = (s ?? "").trim();
    if (s === "") return;
    v.text[kind] = v.text[kind] ? `${v.text[kind]}\n\n${s}` : s;
  };
  v.call = (name, args) => {
    let a;
    try {
      a = JSON.stringify(JSON.parse(args));
    } catch {
      a = `invalid: ${args}`;
    }
    v.calls.push(`${name}(${a})`);
  };
  return v;
}

const readers = {
  async openai() {
    const v = view();
    const c = await openai.chat.completions
      .stream({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .finalChatCompletion();
    const m = c.choices[0].message;
    v.add("respond", m.content);
    v.add("respond", m.refusal);
    for (const tc of m.tool_calls ?? []) v.call(tc.function.name, tc.function.arguments);
    v.stop = c.choices[0].finish_reason;
    return v;
  },
  async "openai-responses"() {
    const v = view();
    const r = await openai.responses.stream({ model: "m", input: "hi" }).finalResponse();
    for (const it of r.output) {
      if (it.type === "message") for (const p of it.content) v.add("respond", p.text ?? p.refusal);
      if (it.type === "reasoning") for (const p of it.summary) v.add("think", p.text);
      if (it.type === "function_call") v.call(it.name, it.arguments);
    }
    v.stop = r.status;
    return v;
  },
  async anthropic() {
    const v = view();
    const m = await anthropic.messages
      .stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    for (const b of m.content) {
      if (b.type === "text") v.add("respond", b.text);
      if (b.type === "thinking") v.add("think", b.thinking);
      if (b.type === "tool_use") v.call(b.name, JSON.stringify(b.input));
    }
    if (m.stop_reason === "refusal") v.add("respond", m.stop_details?.explanation);
    v.stop = m.stop_reason;
    return v;
  },
};

// canonical is v's JSON with object keys sorted, so that two sides that
// order keys differently (Go's maps sorted, the SDKs' as written) compare.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

// calls is a list of "name(args)" with args canonical, sorted.
function calls(list) {
  return list
    .map((c) => {
      const i = c.indexOf("(");
      const args = c.slice(i + 1, -1);
      try {
        return `${c.slice(0, i)}(${canonical(JSON.parse(args))})`;
      } catch {
        return c;
      }
    })
    .sort();
}

const cutStops = ["length", "max_tokens", "incomplete"];
let bad = 0;
let read = 0;
for (const c of cases) {
  body = c.stream;
  let got;
  try {
    got = await readers[c.form]();
  } catch (err) {
    if (!c.want.err) {
      bad++;
      console.log(`${c.name} as ${c.form}: the SDK failed: ${err.message}`);
    }
    continue;
  }
  read++;
  if (c.want.err) {
    bad++;
    console.log(`${c.name} as ${c.form}: a call failed after it streamed, but the SDK saw no error (stop ${got.stop})`);
    continue;
  }
  got.calls.sort();
  if (c.want.cut) {
    if (!cutStops.includes(got.stop)) {
      bad++;
      console.log(`${c.name} as ${c.form}: a call was cut off after it streamed, but the stop reason is ${got.stop}`);
    }
    continue;
  }
  const w = canonical({ text: c.want.text ?? {}, calls: calls(c.want.calls ?? []) });
  const g = canonical({ text: got.text, calls: calls(got.calls) });
  if (w !== g) {
    bad++;
    console.log(`${c.name} as ${c.form}: the SDK made ${g} of a turn that is ${w}`);
  }
}
server.close();
console.log(`${read} streams read, ${bad} differ`);
process.exit(bad > 0 ? 1 : 0);
