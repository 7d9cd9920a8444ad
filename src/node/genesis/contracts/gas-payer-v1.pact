;; gas-payer-v1: what a contract implements to pay gas for other accounts.

(interface gas-payer-v1
  "A gas station: a module that pays the gas of transactions it approves."

  (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)
    @doc "Acquired by the node when a signer lists it: approves paying up \
         \to LIMIT gas at PRICE for USER. It should compose the capability \
         \that the guard from 'create-gas-payer-guard' requires.")

  (defun create-gas-payer-guard:guard ()
    @doc "The guard of the coin account that pays; it passes only while \
         \GAS_PAYER is in scope.")
)
