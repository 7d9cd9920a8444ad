import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openMemoryPactDb, openSqlitePactDb, type PactDb } from "../db/index.ts";
import { keyset, testRuntime } from "../test-support/test-runtime.ts";
import { Decimal } from "../values/decimal.ts";
import { pactValueToPretty } from "../values/show.ts";
import { UNIT } from "../values/types.ts";

const MODULE = `
  (define-keyset 'gov (read-keyset "k"))
  (module people 'gov
    (defschema person name:string age:integer)
    (deftable persons:{person})
    (defun add (k n a) (insert persons k {"name": n, "age": a}))
    (defun get (k) (read persons k))
    (defun in-enforce (k) (enforce (= "Write succeeded" (add k "x" 1)) "no")))
  (create-table persons)`;

const BACKENDS: ReadonlyArray<readonly [string, () => PactDb]> = [
  ["memory", () => openMemoryPactDb()],
  ["SQLite", () => openSqlitePactDb(":memory:")],
];

function people(open: () => PactDb) {
  const t = testRuntime(open());
  t.data({ k: keyset(["admin"]) });
  t.sign("admin");
  t.run(MODULE);
  return t;
}

const show = (t: ReturnType<typeof testRuntime>, code: string) => pactValueToPretty(t.run(code));

for (const [backend, open] of BACKENDS) {
  describe(`database natives (${backend})`, () => {
    it("writes and reads rows, with field selection", () => {
      const t = people(open);
      assert.equal(t.run(`(insert persons "b" {"name": "bo", "age": 3})`), "Write succeeded");
      assert.equal(t.run(`(update persons "b" {"age": 4})`), "Write succeeded");
      assert.equal(t.run(`(write persons "c" {"name": "cy", "age": 5})`), "Write succeeded");
      assert.equal(show(t, `(read persons "b")`), `{"age": 4,"name": "bo"}`);
      assert.equal(show(t, `(read persons "b" ["age"])`), `{"age": 4}`);
      assert.equal(show(t, `(read persons "b" [])`), `{"age": 4,"name": "bo"}`);
    });

    it("fails on duplicate inserts, updates of missing rows and reads of missing rows", () => {
      const t = people(open);
      t.run(`(insert persons "b" {"name": "bo", "age": 3})`);
      assert.equal(
        t.fail(`(insert persons "b" {"name": "bo", "age": 3})`).message,
        `Error during database operation: Value already found while in Insert mode in table people_persons at key "b"`,
      );
      assert.equal(
        t.fail(`(update persons "z" {"age": 3})`).message,
        "Error during database operation: No row found during update in table people_persons at key z",
      );
      const missing = t.fail(`(read persons "z")`);
      assert.equal(missing.message, "No value found in table people_persons for key: z");
      assert.equal(missing.kind, "user");
    });

    it("checks writes against the schema: all fields for insert and write, given ones for update", () => {
      const t = people(open);
      assert.equal(
        t.fail(`(insert persons "b" {"name": "bo", "age": 3.0})`).message,
        `Attempted insert failed due to schema mismatch. Expected: {"age": integer,"name": string}, received {"age": 3.0,"name": "bo"}`,
      );
      assert.equal(
        t.fail(`(write persons "b" {"name": "bo"})`).message,
        `Attempted insert failed due to schema mismatch. Expected: {"age": integer,"name": string}, received {"name": "bo"}`,
      );
      t.run(`(insert persons "b" {"name": "bo", "age": 3})`);
      assert.equal(
        t.fail(`(update persons "b" {"height": 3})`).message,
        `Attempted insert failed due to schema mismatch. Expected: {"age": integer,"name": string}, received {"height": 3}`,
      );
    });

    it("lists keys in ascending order and selects matching rows", () => {
      const t = people(open);
      for (const k of ["d", "b", "c", "a"]) {
        t.run(`(insert persons "${k}" {"name": "${k}", "age": ${k.charCodeAt(0) - 96}})`);
      }
      assert.deepEqual(t.run(`(keys persons)`), ["a", "b", "c", "d"]);
      assert.equal(
        show(t, `(select persons (where 'age (> 3)))`),
        `[{"age": 1,"name": "a"} {"age": 2,"name": "b"}]`,
      );
      assert.equal(
        show(t, `(select persons ['name] (constantly true))`),
        `[{"name": "a"} {"name": "b"} {"name": "c"} {"name": "d"}]`,
      );
      assert.equal(
        t.fail(`(select persons (lambda (row) 1))`).message,
        "expected bool value, got 1",
      );
    });

    it("folds over the rows a query accepts, in key order", () => {
      const t = people(open);
      for (const k of ["c", "a", "b"]) t.run(`(insert persons "${k}" {"name": "${k}", "age": 1})`);
      assert.deepEqual(
        t.run(`(fold-db persons (lambda (k o) (!= k "b")) (lambda (k o) [k (at 'name o)]))`),
        [
          ["a", "a"],
          ["c", "c"],
        ],
      );
    });

    it("binds fields of a read row, or of a default object", () => {
      const t = people(open);
      t.run(`(insert persons "b" {"name": "bo", "age": 3})`);
      assert.equal(
        t.run(`(with-read persons "b" { "name" := n, "age" := a } (format "{} {}" [n a]))`),
        "bo 3",
      );
      assert.equal(
        t.run(`(with-default-read persons "z" { "name": "none", "age": 0 } { "name" := n } n)`),
        "none",
      );
      assert.equal(
        t.fail(`(with-read persons "z" { "name" := n } n)`).message,
        "No value found in table people_persons for key: z",
      );
    });

    it("describes tables and modules, and lists modules", () => {
      const t = people(open);
      assert.equal(
        show(t, `(describe-table persons)`),
        `{"module": "people","name": "persons","type": "table{people.person}"}`,
      );
      const described = t.run(`(describe-module "people")`) as ReadonlyMap<string, unknown>;
      assert.deepEqual([...described.keys()].sort(), [
        "code",
        "hash",
        "interfaces",
        "name",
        "tx_hash",
      ]);
      assert.equal(described.get("name"), "people");
      assert.equal(described.get("tx_hash"), t.rt.env.txHash);
      assert.match(described.get("code") as string, /^\(module people 'gov/);
      assert.deepEqual(t.run(`(list-modules)`), ["people"]);
      assert.equal(t.fail(`(describe-module "nope")`).message, "Cannot find module: nope");
    });

    it("refuses a second create-table", () => {
      const t = people(open);
      assert.equal(
        t.fail(`(create-table persons)`).message,
        "Error during database operation: Table people_persons already exists",
      );
    });
  });
}

describe("table guards", () => {
  it("needs the module's admin to touch its tables from outside the module", () => {
    const t = people(() => openMemoryPactDb());
    t.rt.caps.moduleAdmin.clear();
    const msg = "Module admin necessary for operation but has not been acquired:people";
    assert.equal(t.fail(`(insert persons "b" {"name": "bo", "age": 3})`).message, msg);
    assert.equal(t.fail(`(keys persons)`).message, msg);
    assert.equal(t.fail(`(read persons "b")`).message, msg);
    assert.equal(t.run(`(people.add "b" "bo" 3)`), "Write succeeded");
    assert.equal(show(t, `(people.get "b")`), `{"age": 3,"name": "bo"}`);
  });

  it("lets reads (not writes) through without admin under AllowReadInLocal", () => {
    const t = people(() => openMemoryPactDb());
    t.run(`(people.add "b" "bo" 3)`);
    t.rt.caps.moduleAdmin.clear();
    t.rt.env.flags.add("AllowReadInLocal");
    assert.deepEqual(t.run(`(keys persons)`), ["b"]);
    assert.equal(t.run(`(at 'name (read persons "b"))`), "bo");
    assert.equal(
      t.fail(`(write persons "b" {"name": "bo", "age": 3})`).message,
      "Module admin necessary for operation but has not been acquired:people",
    );
  });

  it("refuses a table of a module version that is neither current nor blessed", () => {
    const t = people(() => openMemoryPactDb());
    t.run(`(module user G (defcap G () true) (defun put (k) (people.add k "u" 1)))`);
    // Upgrading `people` makes the table `user` was compiled against stale.
    t.run(`(module people 'gov
      (defschema person name:string age:integer)
      (deftable persons:{person})
      (defun add (k n a) (insert persons k {"name": n, "age": a})))`);
    assert.match(
      t.fail(`(user.put "k")`).message,
      /^Execution aborted, hash not blessed for module people: [A-Za-z0-9_-]{43}$/,
    );
  });
});

describe("purity", () => {
  it("refuses writes inside enforce", () => {
    const t = people(() => openMemoryPactDb());
    assert.equal(
      t.fail(`(people.in-enforce "b")`).message,
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
    );
  });

  it("refuses key listings but allows reads inside try", () => {
    const t = people(() => openMemoryPactDb());
    t.run(`(people.add "b" "bo" 3)`);
    assert.equal(t.run(`(try "fallback" (at 'name (read persons "b")))`), "bo");
    assert.equal(
      t.fail(`(try [] (keys persons))`).message,
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
    );
  });

  it("refuses user-table reads in constants (sys-only)", () => {
    const t = people(() => openMemoryPactDb());
    t.run(`(people.add "b" "bo" 3)`);
    assert.equal(
      t.fail(`(module c G (defcap G () true) (defconst X (read people.persons "b")))`).message,
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
    );
  });
});

describe("transactions", () => {
  it("leaves no write of a rolled back transaction", () => {
    const t = people(() => openSqlitePactDb(":memory:"));
    const db = t.rt.env.db;
    db.beginTx();
    t.run(`(people.add "b" "bo" 3)`);
    db.rollbackTx();
    assert.deepEqual(t.run(`(keys persons)`), []);
    db.beginTx();
    t.run(`(people.add "b" "bo" 3)`);
    db.commitTx();
    assert.deepEqual(t.run(`(keys persons)`), ["b"]);
  });

  it("reports metadata natives as local-only with DisableHistoryInTransactionalMode", () => {
    const t = people(() => openMemoryPactDb());
    t.rt.env.flags.add("DisableHistoryInTransactionalMode");
    assert.equal(
      t.fail(`(list-modules)`).message,
      "Operation only permitted in local execution mode: list-modules",
    );
    t.rt.env.mode = "local";
    assert.deepEqual(t.run(`(list-modules)`), ["people"]);
  });
});

describe("static-redeploy", () => {
  const NON_UPGRADABLE = `(module m g
    (defcap g () (enforce false "NON UPGRADABLE"))
    (defun f () 1))`;

  it("writes a stored module again in the current form, without governance", () => {
    const t = testRuntime(openSqlitePactDb(":memory:"));
    t.run(NON_UPGRADABLE);
    const db = t.rt.env.db;
    const stored = db.readModule("m")!;
    // A module stored in another layout (as after a format change) ...
    db.writeModule(
      "m",
      {
        hash: stored.hash,
        code: JSON.stringify(JSON.parse(stored.code), null, 1),
      },
      null,
    );
    assert.notEqual(db.readModule("m")!.code, stored.code);
    // ... is written back in the current one, its hash unchanged; its governance never runs.
    assert.deepEqual(t.run(`(static-redeploy "m")`), UNIT);
    assert.deepEqual(db.readModule("m"), stored);
    assert.equal(t.run(`(m.f)`), 1n);
  });

  it("fails for an unknown module, a bad name, and inside a function", () => {
    const t = testRuntime();
    t.run(NON_UPGRADABLE);
    assert.equal(t.fail(`(static-redeploy "nope")`).message, "Cannot find module: nope");
    assert.equal(
      t.fail(`(static-redeploy "a.b.c")`).message,
      "native execution failure, static-redeploy failed with message: invalid module name format",
    );
    t.run(`(module n g (defcap g () true) (defun redeploy () (static-redeploy "m")))`);
    assert.equal(t.fail(`(n.redeploy)`).message, "Top-level call used in module static-redeploy");
  });
});

describe("row values", () => {
  it("keep their types through storage", () => {
    const t = testRuntime(openSqlitePactDb(":memory:"));
    t.run(`(module v G (defcap G () true)
      (defschema s d:decimal i:integer t:time g:guard l:[integer] o:object)
      (deftable tbl:{s}))
      (create-table tbl)`);
    t.data({ k: keyset(["a"]) });
    t.run(`(insert tbl "r" {"d": 1.5, "i": 2, "t": (time "2020-01-01T00:00:00Z"),
      "g": (read-keyset "k"), "l": [1 2], "o": {"x": true}})`);
    const row = t.run(`(read tbl "r")`) as ReadonlyMap<string, unknown>;
    assert.ok((row.get("d") as Decimal).equals(Decimal.parseLiteral("1.5")));
    assert.equal(row.get("i"), 2n);
    assert.equal(show(t, `(at 't (read tbl "r"))`), `"2020-01-01T00:00:00Z"`);
    assert.deepEqual(row.get("g"), keyset(["a"]));
  });
});
