import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeHex } from "../../crypto/hex.ts";
import { encodeHex, keyPairFromSeed } from "../../crypto/index.ts";
import { BRAID_ADMIN_KEY, BRAID_ADMIN_KEYSET, DEV_ACCOUNTS, keysetOf } from "./accounts.ts";
import { contractSource } from "./contracts.ts";
import { CHAIN_COUNT, genesisTransactions } from "./transactions.ts";

describe("development accounts", () => {
  it("are sender00 … sender09 holding (100 + 10·N)·10^6 KDA", () => {
    assert.deepEqual(
      DEV_ACCOUNTS.map((a) => [a.name, a.balance]),
      [
        ["sender00", "100000000.0"],
        ["sender01", "110000000.0"],
        ["sender02", "120000000.0"],
        ["sender03", "130000000.0"],
        ["sender04", "140000000.0"],
        ["sender05", "150000000.0"],
        ["sender06", "160000000.0"],
        ["sender07", "170000000.0"],
        ["sender08", "180000000.0"],
        ["sender09", "190000000.0"],
      ],
    );
  });

  it("have public keys that belong to their secret keys", () => {
    for (const keys of [...DEV_ACCOUNTS, BRAID_ADMIN_KEY]) {
      const derived = keyPairFromSeed(decodeHex(keys.secretKey, 32));
      assert.equal(encodeHex(derived.publicKey), keys.publicKey);
    }
  });

  it("are guarded by a one-key keys-all keyset", () => {
    assert.deepEqual(keysetOf(DEV_ACCOUNTS[0]!), {
      keys: ["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"],
      pred: "keys-all",
    });
  });
});

describe("genesisTransactions", () => {
  it("installs the contracts, opens the namespaces, then funds the senders", () => {
    assert.deepEqual(
      genesisTransactions("0").map((tx) => [tx.name, tx.grants]),
      [
        ["define keysets braid-admin, ns-admin-keyset, ns-operate-keyset", []],
        ["interface fungible-v2", []],
        ["interface fungible-xchain-v1", []],
        ["interface gas-payer-v1", []],
        ["module coin", []],
        ["module ns", []],
        ["define namespaces kadena, free, user", []],
        ...DEV_ACCOUNTS.map((a) => [`fund ${a.name}`, ["coin.COINBASE"]]),
      ],
    );
  });

  it("reads every varying value from data", () => {
    const txs = genesisTransactions("3");
    assert.deepEqual(txs[0], {
      name: "define keysets braid-admin, ns-admin-keyset, ns-operate-keyset",
      code: [
        '(define-keyset "braid-admin" (read-keyset "braid-admin"))',
        '(define-keyset "ns-admin-keyset" (read-keyset "ns-admin-keyset"))',
        '(define-keyset "ns-operate-keyset" (read-keyset "ns-operate-keyset"))',
      ].join("\n"),
      data: {
        [BRAID_ADMIN_KEYSET]: keysetOf(BRAID_ADMIN_KEY),
        "ns-admin-keyset": keysetOf(DEV_ACCOUNTS[0]!),
        "ns-operate-keyset": keysetOf(DEV_ACCOUNTS[0]!),
      },
      grants: [],
    });
    assert.equal(
      txs[4]!.code,
      `${contractSource("coin.pact")}
(create-table coin.coin-table)
(create-table coin.allocation-table)
`,
    );
    assert.deepEqual(txs[7], {
      name: "fund sender00",
      code: '(coin.coinbase (read-msg "account") (read-keyset "account-guard") (read-decimal "amount"))',
      data: {
        account: "sender00",
        "account-guard": {
          keys: ["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"],
          pred: "keys-all",
        },
        amount: "100000000.0",
      },
      grants: ["coin.COINBASE"],
    });
    for (const tx of txs.slice(7)) assert.equal(tx.code, txs[7]!.code);
  });

  it("is the same on all 20 chains and refuses other chain ids", () => {
    assert.equal(CHAIN_COUNT, 20);
    const first = genesisTransactions("0");
    for (let chain = 1; chain < CHAIN_COUNT; chain++) {
      assert.deepEqual(genesisTransactions(String(chain)), first);
    }
    for (const bad of ["20", "-1", "01", "", "1.0", "x"]) {
      assert.throws(() => genesisTransactions(bad), RangeError, bad);
    }
  });
});
