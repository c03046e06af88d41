import Foundation

/// A command-line tool of the machine (the toolchain's `docc`, `swift`) run to its end.
enum ToolRun {
    /// `name` in a folder of the PATH, if any.
    static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `tool` with `arguments` in `folder` (with `environment`, else this process's); returns
    /// its exit status, standard output and standard error, each through a file: a pipe could
    /// fill while the tool waits.
    static func run(
        _ tool: URL, _ arguments: [String], in folder: URL, environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let name = "\(tool.lastPathComponent)-\(UUID().uuidString)"
        let output = folder.appendingPathComponent("\(name).out"), errors = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let outputHandle = try FileHandle(forWritingTo: output), errorHandle = try FileHandle(forWritingTo: errors)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if let environment { process.environment = environment }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}
