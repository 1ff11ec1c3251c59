// `welkin schema`: the scene format, generated from the property tables.

import WelkinCore

extension Commands {
    static let schema = Command(
        name: "schema", summary: "Print the scene format as JSON Schema (draft 2020-12), or as Markdown tables.",
        usage: "welkin schema [--markdown]",
        discussion: """
        The schema lists every key of every layer kind with its type, range, choices, default and meaning.
        Save it and point a scene's "$schema" key at it, and editors such as VS Code complete and check
        keys while you type:  welkin schema > welkin.schema.json
        """,
        options: [Options.Schema.markdown],
        run: { args in
            guard args.positionals.isEmpty else {
                throw UsageError(message: "unexpected argument '\(args.positionals[0])'", command: named("schema"))
            }
            if try args[Options.Schema.markdown] {
                print(SceneSchema.markdown(), terminator: "")
            } else {
                print(SceneSchema.jsonSchema().serialized(indent: 2))
            }
            return 0
        })
}

extension Options {
    /// `welkin schema`'s own options.
    enum Schema {
        static let markdown = Flag("--markdown", help: "Print the reference tables of docs/scene-format.md instead.")
    }
}
