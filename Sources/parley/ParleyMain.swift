import ArgumentParser
import ParleyCLI

/// The `parley` executable: the commands of ParleyCLI.
@main
struct ParleyMain: AsyncParsableCommand {
    static let configuration = ParleyCommand.configuration
}
