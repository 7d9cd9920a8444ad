/**
 * The u16 tags Chainweb prefixes to typed Merkle leaves (`ChainwebHashTag` in chainweb-node's
 * MerkleUniverse.hs). Fields that are themselves hashes (parent, payload hash, adjacent hashes,
 * transactions and outputs hashes) enter trees untagged, as tree nodes.
 */
export const MerkleTag = Object.freeze({
  ChainId: 0x0002,
  BlockHeight: 0x0003,
  BlockWeight: 0x0004,
  FeatureFlags: 0x0006,
  BlockCreationTime: 0x0007,
  ChainwebVersion: 0x0008,
  HashTarget: 0x0011,
  Transaction: 0x0013,
  TransactionOutput: 0x0014,
  MinerData: 0x0017,
  CoinbaseOutput: 0x0018,
  EpochStartTime: 0x0019,
  BlockNonce: 0x0020,
});
