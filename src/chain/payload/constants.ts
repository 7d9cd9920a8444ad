/**
 * Fixed payload byte strings of Chainweb (chainweb-wire.md §4): the miner data of a block
 * mined for no one, and the coinbase output of a block without a coinbase transaction.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);

/** `{"account":"NoMiner","predicate":"<","public-keys":[]}` */
export const NO_MINER_DATA: Uint8Array = utf8(
  '{"account":"NoMiner","predicate":"<","public-keys":[]}',
);

/**
 * Chainweb's `noCoinbaseOutput`; the request key is Pact's `initialHash` (the Blake2b-256
 * hash of the empty string).
 */
export const NO_COINBASE_OUTPUT: Uint8Array = utf8(
  '{"gas":0,"result":{"status":"success","data":"NO_COINBASE"},"reqKey":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","logs":null,"metaData":null,"continuation":null,"txId":null}',
);
