;; fungible-xchain-v1: the capability and event used by cross-chain transfers.

(interface fungible-xchain-v1
  "Scoping capability and receipt event for tokens that move between chains."

  (defcap TRANSFER_XCHAIN:bool
    (sender:string receiver:string amount:decimal target-chain:string)
    @doc "Signers grant this to allow one cross-chain transfer of at most \
         \AMOUNT from SENDER to RECEIVER on TARGET-CHAIN."
    @managed amount TRANSFER_XCHAIN-mgr)

  (defun TRANSFER_XCHAIN-mgr:decimal (managed:decimal requested:decimal)
    @doc "Admit REQUESTED when it does not exceed MANAGED; the allowance \
         \is then used up.")

  (defcap TRANSFER_XCHAIN_RECD:bool
    (sender:string receiver:string amount:decimal source-chain:string)
    @doc "Emitted on the target chain when a cross-chain transfer lands."
    @event)
)
