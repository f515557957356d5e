import ArgumentParser
import ParleyCLI

/// The `parley` executable: the commands of ParleyCLI.
@main
struct ParleyMain: AsyncParsableCommand {
    static let configuration = ParleyCommand.configuration

    /// Parses the command line with the options every command takes accepted before the subcommand too.
    static func main() async {
        await ParleyCommand.main(GlobalOptions.movingLeadingOptions(Array(CommandLine.arguments.dropFirst())))
    }
}
