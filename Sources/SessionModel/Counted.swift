/// `number` followed by `noun`, plural unless `number` is 1: "1 tab", "3 tabs".
public func counted(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
