import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a backup PIN: from `PARLEY_PIN`, or typed at a terminal without echo. Never printed, never logged.
enum PINPrompt {
    /// The PIN; `confirm` asks twice at a terminal (making a backup) and refuses two different answers.
    ///
    /// - Throws: `ValidationError` when there is no `PARLEY_PIN` and standard input is not a terminal, when input
    ///   ends, or when the two answers differ.
    static func read(confirm: Bool) throws -> String {
        if let pin = ProcessInfo.processInfo.environment["PARLEY_PIN"] { return pin }
        guard isatty(STDIN_FILENO) == 1 else { throw ValidationError("no PIN: set PARLEY_PIN or run in a terminal") }
        let pin = try readHidden(prompt: "PIN: ")
        if confirm, try readHidden(prompt: "PIN again: ") != pin { throw ValidationError("the two PINs differ") }
        return pin
    }

    /// One line from the terminal with echo off; the terminal is restored whatever happens.
    private static func readHidden(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw ValidationError("cannot read the terminal's settings") }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw ValidationError("no PIN: input ended") }
        return line
    }
}
