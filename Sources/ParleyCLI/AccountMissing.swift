/// A command named an account that does not exist under the home directory (a typo, or a machine not set up yet).
struct AccountMissing: Error, CustomStringConvertible {
    let account: String
    let home: String

    var description: String {
        "there is no account '\(account)' in \(home): `parley register NAME --server URL` or `parley link --server URL` makes one (--account picks it)"
    }
}
