;; ns: the namespace registry of the Braid development network, and the policy the node asks
;; before a user transaction defines a new namespace (ns.validate). It behaves as the registry of
;; Chainweb's development network: the keysets 'ns-admin-keyset' and 'ns-operate-keyset' (both
;; sender00's key at genesis) govern it and write its entries; a new namespace is allowed when it
;; is the principal namespace of its admin guard, or has an active entry with that very guard.

(module ns GOVERNANCE
  "Namespace registry and policy of the Braid development network."

  (defcap GOVERNANCE ()
    @doc "Upgrading the registry needs the keyset 'ns-admin-keyset'."
    (enforce-keyset "ns-admin-keyset"))

  (defcap OPERATE ()
    @doc "Writing registry entries needs the keyset 'ns-operate-keyset'."
    (enforce-keyset "ns-operate-keyset"))

  (defschema reg-entry
    @doc "A registered namespace: the admin guard it must be defined with, and whether it may be."
    admin-guard:guard
    active:bool)

  (deftable registry:{reg-entry})

  (defun success:bool ()
    @doc "Always true: the predicate behind GUARD_SUCCESS."
    true)

  (defun failure:bool ()
    @doc "Always fails: the predicate behind GUARD_FAILURE."
    (enforce false "Disabled"))

  (defconst GUARD_SUCCESS:guard (create-user-guard (success))
    "A guard anyone satisfies: the user guard of the open namespaces.")

  (defconst GUARD_FAILURE:guard (create-user-guard (failure))
    "A guard nobody satisfies: the admin guard of the open namespaces, which nobody may redefine.")

  (defun validate-name:bool (name:string)
    @doc "Registry names: not empty, shorter than 64 characters, latin-1 only."
    (enforce (!= "" name) "Empty name not allowed")
    (enforce (< (length name) 64) "Name must be less than 64 characters long")
    (enforce (is-charset CHARSET_LATIN1 name) "Name must be in latin1 charset"))

  (defun create-principal-namespace:string (g:guard)
    @doc "The namespace guard G owns: n_ and the first 40 hex digits of the hash of G. Only k: and w: guards own one."
    (let ((protocol (typeof-principal (create-principal g))))
      (enforce (contains protocol ["k:" "w:"])
        (format "Unsupported guard protocol: {}" [protocol]))
      (+ "n_" (take 40 (int-to-str 16 (str-to-int 64 (hash g)))))))

  (defun validate:bool (ns-name:string ns-admin:guard)
    @doc "Whether a new namespace NS-NAME may be defined with admin guard NS-ADMIN: it is the principal namespace of NS-ADMIN, or the registry holds an active entry for it with that guard."
    (if (= ns-name (create-principal-namespace ns-admin))
      true
      (with-default-read registry ns-name
        { "admin-guard": ns-admin, "active": false }
        { "admin-guard" := registered, "active" := active }
        (enforce active "Inactive or unregistered namespace")
        (enforce (= ns-admin registered) "Admin guard must match guard in registry")
        true)))

  (defun write-registry:string (ns-name:string guard:guard active:bool)
    @doc "Operators only: record NS-NAME with admin guard GUARD, definable when ACTIVE."
    (with-capability (OPERATE)
      (validate-name ns-name)
      (write registry ns-name { "admin-guard": guard, "active": active })
      "Register entry written"))

  (defun query:object{reg-entry} (ns-name:string)
    @doc "The registry entry of NS-NAME."
    (read registry ns-name))
)
