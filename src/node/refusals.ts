/** Commands the node refuses: a 400 with this message (mempool rules, a full mempool). */
export class CommandRefusal extends Error {
  override readonly name = "CommandRefusal";
}
