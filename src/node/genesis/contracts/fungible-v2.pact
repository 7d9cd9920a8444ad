;; fungible-v2: the account-based token interface every Braid token offers.
;; Wallets and tools call these names and signatures, so they are fixed;
;; the wording of the documentation is Braid's own.

(interface fungible-v2
  "Account-based fungible token: balances keyed by account name, each \
  \account controlled by a guard, transfers scoped by a managed capability."

  (defschema account-details
    @doc "What 'details' returns for one account."
    account:string
    balance:decimal
    guard:guard)

  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @doc "Signers grant this to allow transfers from SENDER to RECEIVER \
         \totalling at most AMOUNT within one transaction."
    @managed amount TRANSFER-mgr)

  (defun TRANSFER-mgr:decimal (managed:decimal requested:decimal)
    @doc "Spend REQUESTED out of the MANAGED allowance; return what is left.")

  (defun transfer:string (sender:string receiver:string amount:decimal)
    @doc "Move AMOUNT from SENDER to RECEIVER. Both accounts must exist.")

  (defun transfer-create:string
    (sender:string receiver:string receiver-guard:guard amount:decimal)
    @doc "Move AMOUNT from SENDER to RECEIVER, opening RECEIVER with \
         \RECEIVER-GUARD when it does not exist yet. An existing RECEIVER \
         \must already be guarded by RECEIVER-GUARD.")

  (defpact transfer-crosschain:string
    (sender:string receiver:string receiver-guard:guard
     target-chain:string amount:decimal)
    @doc "Two steps: the first, on this chain, takes AMOUNT from SENDER and \
         \yields it to TARGET-CHAIN; the second, continued on TARGET-CHAIN \
         \with an SPV proof of the first, pays RECEIVER (created with \
         \RECEIVER-GUARD if needed).")

  (defun get-balance:decimal (account:string)
    @doc "Balance of ACCOUNT; fails when ACCOUNT does not exist.")

  (defun details:object{account-details} (account:string)
    @doc "Name, balance and guard of ACCOUNT; fails when it does not exist.")

  (defun precision:integer ()
    @doc "Number of decimal places amounts may carry.")

  (defun enforce-unit:bool (amount:decimal)
    @doc "Fail unless AMOUNT fits the token's precision.")

  (defun create-account:string (account:string guard:guard)
    @doc "Open ACCOUNT with a zero balance, controlled by GUARD.")

  (defun rotate:string (account:string new-guard:guard)
    @doc "Replace the guard of ACCOUNT with NEW-GUARD; the current guard \
         \must be satisfied.")
)
