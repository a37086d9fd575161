import { gzipSync } from "node:zlib";
import { asMultipart, encodeBody } from "./body-encoding";
import { deepJson, jsonText, pathLabel, RawJson, valueAt, withoutValueAt, withValueAt } from "./json-text";
import { OperationProbes, refused, tolerated, type Probe } from "./probe";
import { jsonTypeOf } from "./schema-walk";

const DEEP = 10_000;
const HUGE_STRING = 1024 * 1024;
const HUGE_ARRAY = 10_000;

/** Values of each JSON type, to put where another type is expected. */
const TYPE_CANDIDATES: [string, unknown][] = [
  ["a string", "hostile"],
  ["a fraction", 1.5],
  ["an integer", 7],
  ["a boolean", true],
  ["null", null],
  ["an array", ["hostile"]],
  ["an object", { hostile: true }],
];

/** Numbers a JSON parser and a schema must survive. */
const NUMBERS: [string, RawJson][] = [
  ["1e309", new RawJson("1e309")],
  ["-1e309", new RawJson("-1e309")],
  ["-0", new RawJson("-0")],
  ['"NaN" as a string', new RawJson('"NaN"')],
  ["a 30-digit integer", new RawJson("123456789012345678901234567890")],
  ["2^53 + 1", new RawJson("9007199254740993")],
  ["1e-400", new RawJson("1e-400")],
];

/** Text the database or the JSON layer cannot hold as it is. */
const UNSTORABLE: [string, unknown][] = [
  ["a NUL character", "hostile\u0000nul"],
  ["a lone high surrogate", new RawJson('"hostile\\ud800"')],
  ["a lone low surrogate", new RawJson('"\\udc00hostile"')],
];

/** Bytes that are not UTF-8, spliced into a string value of the body. */
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xc3]);
const BYTES_MARKER = "hostile-invalid-utf8-here";

const shared = new Map<string, Buffer>();

/** `{"hostile_padding": "xxx…"}` of exactly `bytes` bytes, made once for every operation. */
function overLimitBody(bytes: number): Buffer {
  const key = `pad:${bytes}`;
  if (!shared.has(key)) shared.set(key, Buffer.from(`{"hostile_padding":"${"x".repeat(bytes - 22)}"}`));
  return shared.get(key)!;
}

/** A few kilobytes of gzip that inflate to a megabyte past `limit`, made once. */
function gzipBomb(limit: number): Buffer {
  const key = `bomb:${limit}`;
  if (!shared.has(key)) shared.set(key, gzipSync(Buffer.alloc(limit + 1024 * 1024, 0x20)));
  return shared.get(key)!;
}

/** Probes of an operation's request body: its shape, sizes, nesting, text, numbers, keys, media type, JSON syntax and encoding. */
export class BodyProbes extends OperationProbes {
  private rotation = 0;

  build(): Probe[] {
    if (this.target.body) {
      this.control();
      this.bodyShape();
      this.sizes();
      this.nesting();
      this.unicode();
      this.numbers();
      this.prototypeKeys();
      this.contentTypes();
      if (this.json) this.malformedJson();
      this.contentEncodings();
    } else if (["POST", "PUT", "PATCH"].includes(this.target.method)) {
      this.undocumentedBodies();
    }
    return this.probes;
  }

  private control(): void {
    if (this.target.body?.example === undefined) return;
    this.add("control", "the documented example", { kind: "accepted" }, this.baseBody());
  }

  private bodyShape(): void {
    for (const [label, value] of [...TYPE_CANDIDATES, ["an empty object", {}], ["an empty array", []]] as [
      string,
      unknown,
    ][]) {
      this.addBody("wrong-type", `the whole body is ${label}`, value);
    }
    for (const field of this.fields()) {
      const types = this.target.walker.types(field.schema);
      const wrong = TYPE_CANDIDATES.filter(
        ([, v]) => !types.has(jsonTypeOf(v)) && !(jsonTypeOf(v) === "integer" && types.has("number")),
      );
      if (wrong.length === 0) continue;
      const [label, value] = wrong[this.rotation++ % wrong.length];
      this.addBody("wrong-type", `${pathLabel(field.path)} is ${label}`, withValueAt(this.base, field.path, value));
    }
    for (const field of this.fields()) {
      const parent = valueAt(this.base, field.path.slice(0, -1));
      if (!field.required || parent === null || typeof parent !== "object") continue;
      this.addBody("missing-required", `${pathLabel(field.path)} is missing`, withoutValueAt(this.base, field.path));
    }
    for (const site of this.objectSites()) {
      const here = valueAt(this.base, site);
      const extra = {
        ...(here && typeof here === "object" ? here : {}),
        hostile_extra: "unknown field",
        hostile_nested: { a: [1, { b: null }] },
      };
      this.addBody("extra-fields", `unknown fields in ${pathLabel(site)}`, withValueAt(this.base, site, extra));
    }
  }

  private sizes(): void {
    for (const field of this.fieldsOfType("string")) {
      this.addBody(
        "huge-string",
        `${pathLabel(field.path)} is a 1 MiB string`,
        withValueAt(this.base, field.path, "x".repeat(HUGE_STRING)),
      );
    }
    this.add("body-limit", "one byte over the body limit", refused(413), {
      body: overLimitBody(this.settings.bodyLimitBytes),
      contentType: this.target.body!.mediaType,
    });
    const arrays = this.fieldsOfType("array").map((f) => f.path);
    if (Array.isArray(this.base)) arrays.unshift([]);
    for (const path of arrays) {
      const here = valueAt(this.base, path);
      const field = this.fields().find((f) => f.path.join(".") === path.join("."));
      const item =
        Array.isArray(here) && here.length
          ? here[0]
          : this.target.walker.sample(this.target.walker.arrayShape(field?.schema ?? this.target.body!.schema)?.items);
      this.addBody(
        "huge-array",
        `${pathLabel(path)} has ${HUGE_ARRAY} items`,
        withValueAt(
          this.base,
          path,
          Array.from({ length: HUGE_ARRAY }, () => item),
        ),
      );
    }
  }

  /** Nesting deeper than any parser or validator should recurse: refused by the API's depth limit, wherever it sits. */
  private nesting(): void {
    if (!this.json) return;
    const deepRefusal = refused(400, 413, 422);
    for (const kind of ["array", "object"] as const) {
      this.addBody(
        "deep-nesting",
        `the whole body is ${DEEP} levels of ${kind === "array" ? "[[[…]]]" : '{"a":{"a":…}}'}`,
        deepJson(kind, DEEP),
        deepRefusal,
      );
      for (const field of this.fields().filter((f) => this.target.walker.isFreeForm(f.schema))) {
        this.addBody(
          "deep-nesting",
          `${pathLabel(field.path)} is ${DEEP} levels of ${kind}s`,
          withValueAt(this.base, field.path, deepJson(kind, DEEP)),
          deepRefusal,
        );
      }
    }
  }

  private unicode(): void {
    const strings = this.fieldsOfType("string");
    const unstorable = this.json ? refused(400, 422) : tolerated;
    for (const field of strings) {
      for (const [label, value] of UNSTORABLE)
        this.addBody(
          "bad-unicode",
          `${pathLabel(field.path)} holds ${label}`,
          withValueAt(this.base, field.path, value),
          unstorable,
        );
    }
    if (this.json) {
      for (const site of this.objectSites()) {
        this.addBody(
          "bad-unicode",
          `a key with a NUL character in ${pathLabel(site)}`,
          this.withMembersAt(site, '"hostile\\u0000key":1'),
          unstorable,
        );
        this.addBody(
          "bad-unicode",
          `a key with a lone surrogate in ${pathLabel(site)}`,
          this.withMembersAt(site, '"hostile\\udfffkey":1'),
          unstorable,
        );
      }
    }
    const first = strings.find(
      (f) => !this.target.walker.resolve(f.schema).enum && !this.target.walker.resolve(f.schema).format,
    );
    if (!first) return;
    this.addBody(
      "bad-unicode",
      `${pathLabel(first.path)} holds bidi overrides, zero-width and combining characters`,
      withValueAt(this.base, first.path, "\u202Eevil\u202C\u2066x\u2069\u200B\uFEFF\u0301🐝"),
    );
    const marked = encodeBody(this.target.body!.mediaType, withValueAt(this.base, first.path, BYTES_MARKER));
    const at = marked.body.indexOf(BYTES_MARKER);
    const body = Buffer.concat([
      marked.body.subarray(0, at),
      INVALID_UTF8,
      marked.body.subarray(at + BYTES_MARKER.length),
    ]);
    // Undecodable bytes become U+FFFD: as valid as the replacement characters they turn into.
    this.add(
      "bad-unicode",
      `${pathLabel(first.path)} holds bytes that are not UTF-8`,
      this.judge(withValueAt(this.base, first.path, "\ufffd".repeat(6)), "bad-unicode"),
      { body, contentType: marked.contentType },
    );
  }

  private numbers(): void {
    const numeric = this.fieldsOfType("number");
    if (numeric.length === 0) return;
    const byField = numeric.flatMap((field) => {
      const s = this.target.walker.resolve(field.schema);
      const bounds: [string, RawJson][] = [];
      if (typeof s.maximum === "number")
        bounds.push([`maximum + 1 (${s.maximum + 1})`, new RawJson(String(s.maximum + 1))]);
      if (typeof s.minimum === "number")
        bounds.push([`minimum - 1 (${s.minimum - 1})`, new RawJson(String(s.minimum - 1))]);
      return bounds.map((b) => [field, b] as const);
    });
    // Every field gets one of the hostile numbers, and every hostile number is used at least once.
    const rounds = Math.max(numeric.length, NUMBERS.length);
    const pairs = [
      ...Array.from({ length: rounds }, (_, i) => [numeric[i % numeric.length], NUMBERS[i % NUMBERS.length]] as const),
      ...byField,
    ];
    for (const [field, [label, value]] of pairs) {
      this.addBody("number-range", `${pathLabel(field.path)} is ${label}`, withValueAt(this.base, field.path, value));
    }
  }

  private prototypeKeys(): void {
    if (!this.json) return;
    for (const site of this.objectSites()) {
      this.addBody(
        "prototype-keys",
        `__proto__ in ${pathLabel(site)}`,
        this.withMembersAt(site, '"__proto__":{"polluted":"yes","toString":"polluted"}'),
      );
      this.addBody(
        "prototype-keys",
        `constructor.prototype in ${pathLabel(site)}`,
        this.withMembersAt(site, '"constructor":{"prototype":{"polluted":"yes"}}'),
      );
    }
  }

  private contentTypes(): void {
    const text = jsonText(this.base);
    const notJson = refused(400, 415);
    if (this.json) {
      this.add("content-type", "text/plain", notJson, { body: Buffer.from(text), contentType: "text/plain" });
      const form = encodeBody("application/x-www-form-urlencoded", this.base);
      // A base without fields (a body whose fields are all optional) is an empty form: no body at all.
      if (form.body.length > 0) this.add("content-type", "application/x-www-form-urlencoded", notJson, form);
      this.add("content-type", "multipart/form-data", notJson, asMultipart(text));
      this.add("content-type", "application/xml", notJson, {
        body: Buffer.from("<hostile/>"),
        contentType: "application/xml",
      });
      this.add("content-type", "no content type", notJson, { body: Buffer.from(text) });
      this.add("content-type", "an empty content type", notJson, { body: Buffer.from(text), contentType: "" });
      this.add("content-type", "JSON sent as UTF-16 (charset=utf-16)", refused(400, 415), {
        body: Buffer.from(`\ufeff${text}`, "utf16le"),
        contentType: "application/json; charset=utf-16",
      });
      for (const type of [
        "application/json; charset=klingon",
        "application/json; charset=iso-8859-1",
        "APPLICATION/JSON",
        "application/vnd.hostile+json",
        "application/json; boundary=x; charset=utf-8; q=0.1",
      ]) {
        this.add("content-type", type, this.judge(this.base, "content-type"), {
          body: Buffer.from(text),
          contentType: type,
        });
      }
    } else {
      this.add("content-type", "application/json instead of the documented type", refused(400, 415, 422), {
        body: Buffer.from(text),
        contentType: "application/json",
      });
      this.add("content-type", "text/plain", refused(400, 415, 422), {
        body: Buffer.from(text),
        contentType: "text/plain",
      });
      this.add("content-type", "no content type", refused(400, 415, 422), { body: Buffer.from(text) });
    }
  }

  private malformedJson(): void {
    const text = jsonText(this.base);
    const malformed: [string, string][] = [
      ["truncated", text.slice(0, Math.floor(text.length / 2))],
      ["a trailing comma", text.replace(/([}\]])$/, ",$1")],
      ["single quotes", text.replace(/"/g, "'")],
      ["a comment", `/* hostile */${text}`],
      ["a NaN literal", jsonText(this.withMembersAt(Array.isArray(this.base) ? [0] : [], '"hostile":NaN'))],
      ["an unterminated string", '{"hostile": "abc'],
      ["whitespace only", " \n\t "],
      ["trailing garbage", `${text} hostile`],
      ["two documents", `${text}${text}`],
      ["a 100,000-digit number", "1".repeat(100_000)],
      ["a lone backslash escape", '{"hostile": "\\x"}'],
    ];
    // A spoiling that leaves the text as it was (no quotes to swap in `{}`) is no malformed body.
    for (const [label, body] of malformed.filter(([, spoilt]) => spoilt !== text))
      this.add("malformed-json", label, refused(400, 422), {
        body: Buffer.from(body),
        contentType: "application/json",
      });
    this.add("malformed-json", "an empty body", this.judge({}, "malformed-json"), {
      body: Buffer.alloc(0),
      contentType: "application/json",
      headers: { "content-length": "0" },
    });
    this.add("malformed-json", "no body and no content type", this.judge({}, "malformed-json"), {});
    this.add("malformed-json", "control characters", refused(400, 422), {
      body: Buffer.from([0x7b, 0x01, 0x02, 0x03, 0x7d]),
      contentType: "application/json",
    });
    for (const [label, literal] of [
      ["null", "null"],
      ["a string", '"hostile"'],
      ["a number", "42"],
      ["true", "true"],
    ]) {
      this.add("malformed-json", `the literal ${label}`, this.judge(JSON.parse(literal), "malformed-json"), {
        body: Buffer.from(literal),
        contentType: "application/json",
      });
    }
    this.add("malformed-json", "a byte-order mark", this.judge(this.base, "malformed-json"), {
      body: Buffer.from(`\ufeff${text}`),
      contentType: "application/json",
    });
    const duplicated = Array.isArray(this.base)
      ? this.base
      : this.base && typeof this.base === "object"
        ? this.withMembersAt([], `"${Object.keys(this.base)[0] ?? "hostile"}":{"wrong":"first"}`)
        : this.base;
    this.add("malformed-json", "a key given twice (the last wins)", this.judge(this.base, "malformed-json"), {
      body: Buffer.from(jsonText(duplicated)),
      contentType: "application/json",
    });
  }

  private contentEncodings(): void {
    const { body, contentType } = this.baseBody();
    for (const encoding of ["gzip", "deflate", "br"]) {
      this.add("content-encoding", `Content-Encoding: ${encoding} over bytes that are not`, refused(400, 415), {
        body,
        contentType,
        headers: { "content-encoding": encoding },
      });
    }
    this.add("content-encoding", "an unknown Content-Encoding", refused(400, 415), {
      body,
      contentType,
      headers: { "content-encoding": "hostile" },
    });
    const bomb = gzipBomb(this.settings.bodyLimitBytes);
    this.add(
      "content-encoding",
      `gzip that inflates past the body limit (${bomb.length} bytes sent)`,
      refused(400, 413, 415),
      { body: bomb, contentType, headers: { "content-encoding": "gzip" } },
    );
    this.add("content-encoding", "a valid gzip body", this.judge(this.base, "content-encoding"), {
      body: gzipSync(body),
      contentType,
      headers: { "content-encoding": "gzip" },
    });
  }

  /** Bodies sent to operations that document none (HTML forms): whatever they parse, they must not fail. */
  private undocumentedBodies(): void {
    const bodies: [string, string, Buffer][] = [
      ["a JSON body 10,000 levels deep", "application/json", Buffer.from(deepJson("array", DEEP).text)],
      [
        "a form nested 5,000 levels deep",
        "application/x-www-form-urlencoded",
        Buffer.from(`a${"[a]".repeat(5_000)}=1`),
      ],
      [
        "a form field repeated 10,000 times",
        "application/x-www-form-urlencoded",
        Buffer.from(Array.from({ length: HUGE_ARRAY }, () => "a[]=1").join("&")),
      ],
      [
        "a form with NUL, bad escapes and bytes that are not UTF-8",
        "application/x-www-form-urlencoded",
        Buffer.concat([Buffer.from("a=%00&b=%zz&c=%ED%A0%80&d="), INVALID_UTF8]),
      ],
      [
        "a form over the body limit",
        "application/x-www-form-urlencoded",
        Buffer.from(`a=${"x".repeat(this.settings.bodyLimitBytes + 1)}`),
      ],
      [
        "__proto__ form fields",
        "application/x-www-form-urlencoded",
        Buffer.from("__proto__[polluted]=yes&constructor[prototype][polluted]=yes"),
      ],
      ["multipart without a boundary", "multipart/form-data", Buffer.from("--x\r\n\r\n")],
      ["text/plain", "text/plain", Buffer.from("hostile")],
    ];
    for (const [label, contentType, body] of bodies)
      this.add("malformed-json", label, tolerated, { body, contentType });
    this.add("content-encoding", "Content-Encoding: gzip over bytes that are not", tolerated, {
      body: Buffer.from("a=1"),
      contentType: "application/x-www-form-urlencoded",
      headers: { "content-encoding": "gzip" },
    });
    this.add("content-encoding", "an unknown Content-Encoding", tolerated, {
      body: Buffer.from("a=1"),
      contentType: "application/x-www-form-urlencoded",
      headers: { "content-encoding": "hostile" },
    });
  }
}
