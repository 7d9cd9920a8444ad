;; braid-token: a fungible token written for Braid's tests.
;;
;; Accounts hold a decimal balance and a guard. Moving tokens needs the sender's guard, through
;; a managed TRANSFER capability: a signer scopes a signature to (TRANSFER from to amount), and
;; the amount is a budget that each transfer made under it spends. A cross-chain transfer is a
;; two-step defpact: step 0 burns on the source chain and yields to the target chain, step 1
;; mints there.

(module braid-token GOVERNANCE
  @doc "A fungible token: accounts, managed transfers, guard rotation, cross-chain transfers."

  (defcap GOVERNANCE () (enforce-guard (keyset-ref-guard "token-admin")))

  (defconst PRECISION:integer 12 "Decimal places an amount may have.")

  (defschema account
    balance:decimal
    guard:guard)

  (deftable accounts:{account})

  (defschema account-details
    account:string
    balance:decimal
    guard:guard)

  (defschema crosschain
    receiver:string
    receiver-guard:guard
    amount:decimal
    source-chain:string)

  ;; ------------------------------------------------------------------------------------------
  ;; Capabilities

  (defcap DEBIT (account:string)
    @doc "Taking tokens out of ACCOUNT: its guard must pass."
    (enforce-guard (at "guard" (read accounts account))))

  (defcap CREDIT (account:string)
    @doc "Putting tokens into ACCOUNT."
    (enforce (!= account "") "Account name must not be empty"))

  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @doc "Moving AMOUNT from SENDER to RECEIVER; signed amounts are budgets."
    @managed amount TRANSFER-mgr
    (enforce (!= sender receiver) "Sender and receiver must differ")
    (check-amount amount)
    (compose-capability (DEBIT sender))
    (compose-capability (CREDIT receiver)))

  (defun TRANSFER-mgr:decimal (budget:decimal requested:decimal)
    @doc "Spends REQUESTED of the signed BUDGET."
    (let ((left (- budget requested)))
      (enforce (>= left 0.0)
        (format "Transfer of {} exceeds the remaining signed amount {}" [requested budget]))
      left))

  (defcap TRANSFER_XCHAIN:bool
    (sender:string receiver:string amount:decimal target-chain:string)
    @doc "Burning AMOUNT of SENDER here to mint it for RECEIVER on TARGET-CHAIN."
    @managed amount TRANSFER-mgr
    (enforce (!= target-chain "") "Target chain must be given")
    (check-amount amount)
    (compose-capability (DEBIT sender)))

  (defcap TRANSFER_XCHAIN_RECD:bool
    (sender:string receiver:string amount:decimal source-chain:string)
    @doc "Tokens of a cross-chain transfer arrived."
    @event
    true)

  (defcap ROTATE (account:string)
    @doc "Replacing ACCOUNT's guard: the current guard must pass."
    @event
    (enforce-guard (at "guard" (read accounts account))))

  (defcap MINT (account:string amount:decimal)
    @doc "Creating tokens: the token administrator only."
    @event
    (enforce-guard (keyset-ref-guard "token-admin")))

  ;; ------------------------------------------------------------------------------------------
  ;; Helpers

  (defun check-amount (amount:decimal)
    (enforce (> amount 0.0) "Amount must be positive")
    (enforce (= (floor amount PRECISION) amount)
      (format "Amount {} has more than {} decimal places" [amount PRECISION])))

  (defun debit (account:string amount:decimal)
    (require-capability (DEBIT account))
    (with-read accounts account { "balance" := balance }
      (enforce (<= amount balance) "Insufficient funds")
      (update accounts account { "balance": (- balance amount) })))

  (defun credit (account:string guard:guard amount:decimal)
    (require-capability (CREDIT account))
    (with-default-read accounts account
      { "balance": -1.0, "guard": guard }
      { "balance" := balance, "guard" := current }
      (enforce (= current guard) "Guard does not match the account's guard")
      (write accounts account
        { "balance": (if (= balance -1.0) amount (+ balance amount))
        , "guard": current })))

  ;; ------------------------------------------------------------------------------------------
  ;; Accounts

  (defun create-account:string (account:string guard:guard)
    (enforce (!= account "") "Account name must not be empty")
    (insert accounts account { "balance": 0.0, "guard": guard })
    (format "Created account {}" [account]))

  (defun get-balance:decimal (account:string)
    (at "balance" (read accounts account)))

  (defun details:object{account-details} (account:string)
    (with-read accounts account { "balance" := balance, "guard" := guard }
      { "account": account, "balance": balance, "guard": guard }))

  (defun rotate:string (account:string new-guard:guard)
    (with-capability (ROTATE account)
      (update accounts account { "guard": new-guard })
      (format "Rotated {}" [account])))

  (defun mint:string (account:string guard:guard amount:decimal)
    (check-amount amount)
    (with-capability (MINT account amount)
      (with-capability (CREDIT account)
        (credit account guard amount)))
    (format "Minted {} for {}" [amount account]))

  ;; ------------------------------------------------------------------------------------------
  ;; Transfers

  (defun transfer:string (sender:string receiver:string amount:decimal)
    @doc "Moves AMOUNT to an existing RECEIVER account."
    (with-capability (TRANSFER sender receiver amount)
      (let ((guard (at "guard" (read accounts receiver))))
        (debit sender amount)
        (credit receiver guard amount)))
    (format "Transferred {} from {} to {}" [amount sender receiver]))

  (defun transfer-create:string
    (sender:string receiver:string receiver-guard:guard amount:decimal)
    @doc "Moves AMOUNT to RECEIVER, creating the account with RECEIVER-GUARD if needed."
    (with-capability (TRANSFER sender receiver amount)
      (debit sender amount)
      (credit receiver receiver-guard amount))
    (format "Transferred {} from {} to {}" [amount sender receiver]))

  (defpact transfer-crosschain:string
    (sender:string receiver:string receiver-guard:guard target-chain:string amount:decimal)
    @doc "Burns AMOUNT of SENDER on this chain; step 1, on TARGET-CHAIN, mints it for RECEIVER."
    (step
      (with-capability (TRANSFER_XCHAIN sender receiver amount target-chain)
        (let ((here (at "chain-id" (chain-data))))
          (enforce (!= target-chain here) "Target chain must differ from this chain")
          (debit sender amount)
          (let ((payload:object{crosschain}
                  { "receiver": receiver
                  , "receiver-guard": receiver-guard
                  , "amount": amount
                  , "source-chain": here }))
            (yield payload target-chain)
            (format "Sent {} from {} to chain {}" [amount sender target-chain])))))
    (step
      (resume
        { "receiver" := to, "receiver-guard" := guard
        , "amount" := received, "source-chain" := from-chain }
        (emit-event (TRANSFER_XCHAIN_RECD "" to received from-chain))
        (with-capability (CREDIT to)
          (credit to guard received))
        (format "Received {} for {} from chain {}" [received to from-chain]))))
)
