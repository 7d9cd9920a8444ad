import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, type JsonValue } from "../pact/values/json-text.ts";
import { MAX_YAML_DEPTH, parseYaml, YamlFields, YamlNumber } from "./yaml-input.ts";

const numberText = (v: JsonValue | undefined) => (v instanceof JsonNumber ? v.text : v);

describe("parseYaml", () => {
  it("keeps numbers exact and turns YAML-only forms into JSON numbers", () => {
    const value = parseYaml(
      "a: 0.1000000000000000055\nb: 12345678901234567890123\nc: +1.5\nd: .5\ne: 0x1F\nf: 0o17\ng: 007\nh: 1.0e-8\n",
      "t.yaml",
    );
    assert.ok(value instanceof Map);
    assert.deepEqual([...value.values()].map(numberText), [
      "0.1000000000000000055",
      "12345678901234567890123",
      "1.5",
      "0.5",
      "31",
      "15",
      "7",
      "1.0e-8",
    ]);
    const g = value.get("g");
    assert.ok(g instanceof YamlNumber);
    assert.equal(g.written, "007");
  });

  it("reads strings, booleans, nulls, lists, maps and aliases", () => {
    const value = parseYaml(
      "s: 'x'\nt: True\nn: ~\nl: &l [1, two]\nm: {k: *l}\n12: twelve\n",
      "t.yaml",
    );
    assert.ok(value instanceof Map);
    assert.equal(value.get("s"), "x");
    assert.equal(value.get("t"), true);
    assert.equal(value.get("n"), null);
    assert.deepEqual(value.get("l"), [new YamlNumber("1", "1"), "two"]);
    assert.deepEqual(value.get("m"), new Map([["k", [new YamlNumber("1", "1"), "two"]]]));
    assert.equal(value.get("12"), "twelve");
    assert.equal(parseYaml("", "t.yaml"), null);
  });

  it("names the file in every error", () => {
    const cases: [string, string][] = [
      ["a: .inf\n", "t.yaml: a: .inf is not a finite number"],
      ["a: 1\na: 2\n", "t.yaml: invalid YAML: Map keys must be unique at line 2, column 1"],
      [
        "a: 1\n---\nb: 2\n",
        "t.yaml: invalid YAML: Source contains multiple documents; please use YAML.parseAllDocuments() at line 2, column 1",
      ],
      ["? [1]\n: x\n", "t.yaml: map keys must be plain text"],
      ["a: &x [*x]\n", `t.yaml: YAML nested deeper than ${MAX_YAML_DEPTH} levels`],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseYaml(text, "t.yaml"), { name: "CommandInputError", message }, text);
    }
  });
});

describe("YamlFields", () => {
  const fields = YamlFields.of(
    parseYaml("key: 0123\nname: x\nn: 5\n", "f.yaml"),
    "f.yaml",
    "top",
    "fields",
  );

  it("reads digit-only text as written", () => {
    assert.equal(fields.optionalText("key"), "0123");
    assert.equal(fields.optionalText("missing"), undefined);
  });

  it("names the field and the bad value", () => {
    assert.throws(() => fields.optionalString("n"), {
      message:
        "f.yaml: top.n must be a string (quote it if it looks like a number), got a number 5",
    });
    assert.throws(() => fields.onlyKeys(["key", "name"], "a test"), {
      message: 'f.yaml: unknown key "top.n" in a test; valid keys are: key, name',
    });
    assert.throws(() => fields.string("other"), { message: 'f.yaml: missing "top.other"' });
  });
});
