;; coin: the native token of the Braid development network (KDA-compatible).
;;
;; The public names (functions, capabilities, events, table and error texts
;; users see) follow the coin contract of Chainweb so that existing clients
;; work unchanged; the code and its documentation are Braid's own.
;;
;; Capabilities only the node grants ("magic" capabilities: Pact lets only
;; code of this module acquire them, and no function here does, so they are
;; in scope only when the node grants them to its own calls):
;;   COINBASE  mining rewards and genesis funding ('coinbase')
;;   GAS       buying and redeeming gas ('buy-gas', 'redeem-gas', 'fund-tx')
;;   GENESIS   genesis allocations ('create-allocation-account')
;;   FUND_TX   granted together with GAS, for gas payers that require it

(module coin GOVERNANCE
  "The Braid coin: balances, transfers on and across chains, gas payment \
  \and mining rewards."

  (implements fungible-v2)
  (implements fungible-xchain-v1)

  ;; ------------------------------------------------------------------
  ;; Ledger

  (defschema coin-schema
    @doc "One account: its balance and the guard that controls it."
    balance:decimal
    guard:guard)

  (deftable coin-table:{coin-schema})

  ;; ------------------------------------------------------------------
  ;; Governance and capabilities granted by the node

  (defcap GOVERNANCE ()
    @doc "Upgrades need the 'braid-admin' keyset installed at genesis."
    (enforce-keyset "braid-admin"))

  (defcap GAS ()
    @doc "Granted by the node around gas purchase and redemption."
    true)

  (defcap FUND_TX ()
    @doc "Granted by the node while a transaction's gas is being funded."
    true)

  (defcap COINBASE ()
    @doc "Granted by the node to pay block rewards and genesis balances."
    true)

  (defcap GENESIS ()
    @doc "Granted by the node to transactions of the genesis block."
    true)

  ;; ------------------------------------------------------------------
  ;; Ledger capabilities

  (defcap DEBIT (sender:string)
    @doc "Taking coins out of SENDER: SENDER's guard must pass."
    (enforce-guard (at "guard" (read coin-table sender)))
    (enforce (!= sender "") "valid sender"))

  (defcap CREDIT (receiver:string)
    @doc "Putting coins into RECEIVER."
    (enforce (!= receiver "") "valid receiver"))

  (defcap ROTATE (account:string)
    @doc "Scopes a guard change of ACCOUNT; needs no signature capability."
    @managed
    true)

  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @doc "Transfers from SENDER to RECEIVER up to AMOUNT in total."
    @managed amount TRANSFER-mgr
    (enforce (!= sender receiver) "same sender and receiver")
    (enforce-unit amount)
    (enforce (> amount 0.0) "Positive amount")
    (compose-capability (DEBIT sender))
    (compose-capability (CREDIT receiver)))

  (defun TRANSFER-mgr:decimal (managed:decimal requested:decimal)
    @doc "Linear allowance: what is left after spending REQUESTED."
    (let ((left (- managed requested)))
      (enforce (>= left 0.0)
        (format "TRANSFER exceeded for balance {}" [managed]))
      left))

  (defcap TRANSFER_XCHAIN:bool
    (sender:string receiver:string amount:decimal target-chain:string)
    @doc "One cross-chain transfer of at most AMOUNT from SENDER."
    @managed amount TRANSFER_XCHAIN-mgr
    (enforce-unit amount)
    (enforce (> amount 0.0) "Cross-chain transfers require a positive amount")
    (compose-capability (DEBIT sender)))

  (defun TRANSFER_XCHAIN-mgr:decimal (managed:decimal requested:decimal)
    @doc "One-shot allowance: REQUESTED may not exceed MANAGED; nothing is \
         \left afterwards."
    (enforce (>= managed requested)
      (format "TRANSFER_XCHAIN exceeded for balance {}" [managed]))
    0.0)

  (defcap TRANSFER_XCHAIN_RECD:bool
    (sender:string receiver:string amount:decimal source-chain:string)
    @doc "Event: a cross-chain transfer from SOURCE-CHAIN paid RECEIVER."
    @event
    true)

  (defcap RELEASE_ALLOCATION (account:string amount:decimal)
    @doc "Event, and signature scope, for releasing a genesis allocation."
    @event
    true)

  ;; ------------------------------------------------------------------
  ;; Constants

  (defconst COIN_CHARSET CHARSET_LATIN1
    "Characters allowed in account names.")

  (defconst MINIMUM_PRECISION 12
    "Decimal places an amount may carry.")

  (defconst MINIMUM_ACCOUNT_LENGTH 3
    "Shortest account name.")

  (defconst MAXIMUM_ACCOUNT_LENGTH 256
    "Longest account name.")

  (defconst VALID_CHAIN_IDS (map (int-to-str 10) (enumerate 0 19))
    "The chains of the network: \"0\" to \"19\".")

  ;; ------------------------------------------------------------------
  ;; Checks

  (defun enforce-unit:bool (amount:decimal)
    @doc "Fail when AMOUNT has more than MINIMUM_PRECISION decimal places."
    (enforce (= amount (floor amount MINIMUM_PRECISION))
      (format "Amount violates minimum precision: {}" [amount])))

  (defun validate-account:bool (account:string)
    @doc "Fail unless ACCOUNT is a latin-1 name of 3 to 256 characters."
    (enforce (is-charset COIN_CHARSET account)
      (format "Account does not conform to the coin contract charset: {}"
        [account]))
    (let ((size (length account)))
      (enforce (>= size MINIMUM_ACCOUNT_LENGTH)
        (format "Account name does not conform to the min length requirement: {}"
          [account]))
      (enforce (<= size MAXIMUM_ACCOUNT_LENGTH)
        (format "Account name does not conform to the max length requirement: {}"
          [account]))))

  (defun check-reserved:string (account:string)
    @doc "The protocol letter of a reserved name (\"k\" for \"k:...\"), or \"\" \
         \when ACCOUNT does not start with one letter and a colon."
    (if (= ":" (drop 1 (take 2 account)))
      (take 1 account)
      ""))

  (defun enforce-reserved:bool (account:string guard:guard)
    @doc "A principal name (k:, w:, r:, ...) may only be opened with the \
         \guard it is derived from; other names take any guard."
    (let ((protocol (check-reserved account)))
      (cond
        ((validate-principal guard account) true)
        ((= protocol "") true)
        ((= protocol "k") (enforce false "Single-key account protocol violation"))
        (enforce false
          (format "Reserved protocol guard violation: {}" [protocol])))))

  (defun check-transfer:bool (sender:string receiver:string amount:decimal)
    @doc "Checks shared by 'transfer' and 'transfer-create'."
    (enforce (!= sender receiver)
      "sender cannot be the receiver of a transfer")
    (validate-account sender)
    (validate-account receiver)
    (enforce (> amount 0.0) "transfer amount must be positive")
    (enforce-unit amount))

  ;; ------------------------------------------------------------------
  ;; Queries

  (defun get-balance:decimal (account:string)
    (at "balance" (read coin-table account ["balance"])))

  (defun details:object{fungible-v2.account-details} (account:string)
    (with-read coin-table account { "balance" := balance, "guard" := guard }
      { "account": account, "balance": balance, "guard": guard }))

  (defun precision:integer ()
    MINIMUM_PRECISION)

  ;; ------------------------------------------------------------------
  ;; Accounts

  (defun create-account:string (account:string guard:guard)
    (validate-account account)
    (enforce-reserved account guard)
    (insert coin-table account { "balance": 0.0, "guard": guard }))

  (defun rotate:string (account:string new-guard:guard)
    (with-capability (ROTATE account)
      ;; A principal account keeps the guard its name is derived from.
      (enforce (or (not (is-principal account))
                   (validate-principal new-guard account))
        "It is unsafe for principal accounts to rotate their guard")
      (enforce-guard (at "guard" (read coin-table account ["guard"])))
      (update coin-table account { "guard": new-guard })))

  ;; ------------------------------------------------------------------
  ;; Ledger primitives (each needs its capability in scope)

  (defun debit:string (account:string amount:decimal)
    @doc "Take AMOUNT out of ACCOUNT; needs DEBIT of ACCOUNT."
    (validate-account account)
    (enforce (> amount 0.0) "debit amount must be positive")
    (enforce-unit amount)
    (require-capability (DEBIT account))
    (let ((balance (get-balance account)))
      (enforce (<= amount balance) "Insufficient funds")
      (update coin-table account { "balance": (- balance amount) })))

  (defun credit:string (account:string guard:guard amount:decimal)
    @doc "Put AMOUNT into ACCOUNT, opening it with GUARD when it is new; an \
         \existing account must already have GUARD. Needs CREDIT of ACCOUNT."
    (validate-account account)
    (enforce (> amount 0.0) "credit amount must be positive")
    (enforce-unit amount)
    (require-capability (CREDIT account))
    (with-default-read coin-table account
      { "balance": -1.0, "guard": guard }
      { "balance" := balance, "guard" := current }
      (enforce (= current guard) "account guards do not match")
      (let ((fresh (= balance -1.0)))
        ;; A new principal account must come with its own guard.
        (if fresh (enforce-reserved account guard) true)
        (write coin-table account
          { "balance": (if fresh amount (+ balance amount)), "guard": current }))))

  ;; ------------------------------------------------------------------
  ;; Transfers

  (defun transfer:string (sender:string receiver:string amount:decimal)
    (check-transfer sender receiver amount)
    (with-capability (TRANSFER sender receiver amount)
      (debit sender amount)
      (credit receiver (at "guard" (read coin-table receiver ["guard"])) amount)))

  (defun transfer-create:string
    (sender:string receiver:string receiver-guard:guard amount:decimal)
    (check-transfer sender receiver amount)
    (with-capability (TRANSFER sender receiver amount)
      (debit sender amount)
      (credit receiver receiver-guard amount)))

  (defschema crosschain-schema
    @doc "What the first step of 'transfer-crosschain' hands to the second."
    receiver:string
    receiver-guard:guard
    amount:decimal
    source-chain:string)

  (defpact transfer-crosschain:string
    (sender:string receiver:string receiver-guard:guard
     target-chain:string amount:decimal)
    (step
      (with-capability (TRANSFER_XCHAIN sender receiver amount target-chain)
        (validate-account sender)
        (validate-account receiver)
        (enforce (!= "" target-chain) "empty target-chain")
        (enforce (!= (at "chain-id" (chain-data)) target-chain)
          "cannot run cross-chain transfers to the same chain")
        (enforce (> amount 0.0) "transfer quantity must be positive")
        (enforce-unit amount)
        (enforce (contains target-chain VALID_CHAIN_IDS)
          "target chain is not a valid chainweb chain id")
        ;; Burn here; the coins reappear on the target chain in step 1.
        (debit sender amount)
        (emit-event (TRANSFER sender "" amount))
        (let ((outbound:object{crosschain-schema}
                { "receiver": receiver
                , "receiver-guard": receiver-guard
                , "amount": amount
                , "source-chain": (at "chain-id" (chain-data)) }))
          (yield outbound target-chain))))
    (step
      (resume
        { "receiver" := receiver
        , "receiver-guard" := receiver-guard
        , "amount" := amount
        , "source-chain" := source-chain }
        (emit-event (TRANSFER "" receiver amount))
        (emit-event (TRANSFER_XCHAIN_RECD "" receiver amount source-chain))
        (with-capability (CREDIT receiver)
          (credit receiver receiver-guard amount)))))

  ;; ------------------------------------------------------------------
  ;; Gas

  (defun gas-only:bool ()
    @doc "Guard predicate: passes only while the node holds GAS."
    (require-capability (GAS)))

  (defun gas-guard:bool (guard:guard)
    @doc "Guard predicate: passes while GAS is held or when GUARD passes."
    (enforce-one "Enforce either the presence of a GAS cap or keyset"
      [(gas-only) (enforce-guard guard)]))

  (defun buy-gas:string (sender:string total:decimal)
    @doc "Before a command runs: take the most it may pay for gas, TOTAL \
         \(gas limit times gas price), from SENDER. Needs GAS."
    (validate-account sender)
    (enforce-unit total)
    (enforce (> total 0.0) "gas supply must be a positive quantity")
    (require-capability (GAS))
    (with-capability (DEBIT sender)
      (debit sender total)))

  (defun redeem-gas:string
    (miner:string miner-guard:guard sender:string total:decimal)
    @doc "After a command ran: out of TOTAL taken by 'buy-gas', pay the fee \
         \(message field \"fee\": gas used times gas price) to MINER and give \
         \the rest back to SENDER. Needs GAS."
    (validate-account sender)
    (validate-account miner)
    (enforce-unit total)
    (require-capability (GAS))
    (let* ((fee (read-decimal "fee"))
           (refund (- total fee)))
      (enforce-unit fee)
      (enforce (>= fee 0.0) "fee must be a non-negative quantity")
      (enforce (>= refund 0.0) "refund must be a non-negative quantity")
      (emit-event (TRANSFER sender miner fee))
      (if (> refund 0.0)
        (update coin-table sender
          { "balance": (+ (get-balance sender) refund) })
        "noop")
      (if (> fee 0.0)
        (with-capability (CREDIT miner)
          (credit miner miner-guard fee))
        "noop")))

  (defpact fund-tx (sender:string miner:string miner-guard:guard total:decimal)
    @doc "Gas funding as a pact: step 0 is 'buy-gas', step 1 'redeem-gas'; \
         \the command runs in between."
    (step (buy-gas sender total))
    (step (redeem-gas miner miner-guard sender total)))

  ;; ------------------------------------------------------------------
  ;; New coins

  (defun coinbase:string (account:string account-guard:guard amount:decimal)
    @doc "Mint AMOUNT into ACCOUNT (opened with ACCOUNT-GUARD if new): block \
         \rewards and genesis balances. Needs COINBASE."
    (validate-account account)
    (enforce-unit amount)
    (require-capability (COINBASE))
    (emit-event (TRANSFER "" account amount))
    (with-capability (CREDIT account)
      (credit account account-guard amount)))

  ;; ------------------------------------------------------------------
  ;; Genesis allocations: balances locked until a release date

  (defschema allocation-schema
    @doc "A locked genesis balance."
    balance:decimal
    date:time
    guard:guard
    redeemed:bool)

  (deftable allocation-table:{allocation-schema})

  (defun create-allocation-account:string
    (account:string date:time keyset-ref:string amount:decimal)
    @doc "Genesis only: open ACCOUNT (guarded by the keyset named KEYSET-REF) \
         \with a zero balance and lock AMOUNT for it until DATE."
    (require-capability (GENESIS))
    (validate-account account)
    (enforce (>= amount 0.0) "allocation amount must be non-negative")
    (enforce-unit amount)
    (let ((guard (keyset-ref-guard keyset-ref)))
      (create-account account guard)
      (insert allocation-table account
        { "balance": amount, "date": date, "guard": guard, "redeemed": false })))

  (defun release-allocation:string (account:string)
    @doc "Move the locked balance of ACCOUNT into the ledger once its date \
         \has come; the allocation guard must pass."
    (validate-account account)
    (with-read allocation-table account
      { "balance" := balance, "date" := unlocks
      , "guard" := guard, "redeemed" := done }
      (let ((now (at "block-time" (chain-data))))
        (enforce (not done) "allocation funds have already been redeemed")
        (enforce (>= now unlocks)
          (format "funds locked until {}. current time: {}" [unlocks now]))
        (with-capability (RELEASE_ALLOCATION account balance)
          (enforce-guard guard)
          (with-capability (CREDIT account)
            (emit-event (TRANSFER "" account balance))
            (credit account guard balance)
            (update allocation-table account { "redeemed": true, "balance": 0.0 })
            "Allocation successfully released to main ledger")))))
)
