;; ns: namespace administration for the Braid development network.
;; On this network the 'free', 'user' and 'util' namespaces are open to
;; everyone (see OPEN_NAMESPACES and 'open-guard'); other names need an active registry entry
;; written by the operator, except principal namespaces (n_...), which the
;; owner of a k: or w: guard may always use.

(module ns GOVERNANCE
  "Namespace registry and policy of the Braid development network."

  (defcap GOVERNANCE ()
    @doc "Upgrades need the genesis administrator keyset."
    (enforce-keyset "braid-admin"))

  (defcap OPERATE ()
    @doc "Writing registry entries needs the genesis administrator keyset."
    (enforce-keyset "braid-admin"))

  (defschema entry
    @doc "A registered namespace: who administers it and whether it is open."
    admin-guard:guard
    active:bool)

  (deftable registry:{entry})

  (defun success:bool ()
    @doc "Always true: the predicate behind 'open-guard'."
    true)

  (defun failure:bool ()
    @doc "Always fails: the predicate behind 'closed-guard'."
    (enforce false "Disabled"))

  (defconst GUARD_SUCCESS:guard (create-user-guard (success))
    "A guard anyone satisfies.")

  (defconst GUARD_FAILURE:guard (create-user-guard (failure))
    "A guard nobody satisfies.")

  (defconst OPEN_NAMESPACES:[string] ["free" "user" "util"]
    "Namespaces anyone may use; their user and admin guard is GUARD_SUCCESS.")

  (defun open-guard:guard ()
    @doc "The guard used as user and admin guard of the open namespaces."
    GUARD_SUCCESS)

  (defun validate-name:bool (name:string)
    @doc "Registry names: non-empty, shorter than 64 characters, latin-1."
    (enforce (!= "" name) "Empty name not allowed")
    (enforce (< (length name) 64) "Name must be less than 64 characters long")
    (enforce (is-charset CHARSET_LATIN1 name) "Name must be in latin1 charset"))

  (defun has-principal-namespace:bool (g:guard)
    @doc "Whether guard G owns a principal namespace (k: and w: guards do)."
    (contains (typeof-principal (create-principal g)) ["k:" "w:"]))

  (defun create-principal-namespace:string (g:guard)
    @doc "The namespace owned by guard G: 'n_' and the first 40 hex digits \
         \of the hash of G. Only k: and w: guards have one."
    (enforce (has-principal-namespace g)
      (format "Unsupported guard protocol: {}"
        [(typeof-principal (create-principal g))]))
    (+ "n_" (take 40 (int-to-str 16 (str-to-int 64 (hash g))))))

  (defun validate:bool (ns-name:string ns-admin:guard)
    @doc "Namespace policy: NS-NAME may be defined with admin guard NS-ADMIN \
         \when it is one of OPEN_NAMESPACES administered by GUARD_SUCCESS, \
         \the principal namespace of NS-ADMIN, or has an active registry \
         \entry with that very guard."
    (cond
      ((and (contains ns-name OPEN_NAMESPACES) (= ns-admin GUARD_SUCCESS)) true)
      ((and (has-principal-namespace ns-admin)
            (= ns-name (create-principal-namespace ns-admin)))
        true)
      (with-default-read registry ns-name
        { "admin-guard": ns-admin, "active": false }
        { "admin-guard" := registered, "active" := open }
        (enforce open "Inactive or unregistered namespace")
        (enforce (= registered ns-admin) "Admin guard must match guard in registry")
        true)))

  (defun write-registry:string (ns-name:string guard:guard active:bool)
    @doc "Operator only: record NS-NAME with admin GUARD, open when ACTIVE."
    (with-capability (OPERATE)
      (validate-name ns-name)
      (write registry ns-name { "admin-guard": guard, "active": active })
      "Register entry written"))

  (defun query:object{entry} (ns-name:string)
    @doc "The registry entry of NS-NAME."
    (read registry ns-name))
)
