import ArgumentParser

/// kvo-run's shell completion scripts: swift-argument-parser's, patched.
///
/// Why patched: the parser's scripts do not know about a default subcommand.
/// At the root they offer only the subcommands' names, so `kvo-run ok<TAB>`
/// (that is, `kvo-run run ok.kvo`) and `kvo-run --format j<TAB>` completed
/// nothing; only `kvo-run run ok<TAB>` did. Patched, unless the first word
/// names a subcommand the words complete as `run`'s (`.kvo` and `.swift` files and
/// directories, its options and their values), and the first word also as a
/// subcommand's name; `kvo-run run|check|test …` complete as before.
///
/// Each fix replaces an exact snippet of the generated script. When one is
/// not found (another version of the parser), the script comes back
/// unchanged, never half patched; CommandLineTests then fails, so that an
/// upgrade of the parser is noticed and the snippets updated.
public enum CompletionScripts {
    /// Written into each shell's script by the fixes: a patched script holds it.
    public static let marker = "the words are run's (kvo-run's default subcommand)"

    /// `script`, the parser's completion script for `shell` ("bash", "zsh"
    /// or "fish"), with kvo-run's fixes; unchanged for another shell or when
    /// a snippet the fixes replace is not in it.
    public static func patched(_ shell: String, _ script: String) -> String {
        guard let fixes = fixes(shell, script) else { return script }
        var text = script
        for (snippet, replacement) in fixes {
            guard text.contains(snippet) else { return script }
            text = text.replacing(snippet, with: replacement)
        }
        return text
    }

    /// The shell whose completion script a command line (without the program
    /// name) asks for: `--generate-completion-script SHELL`, `…=SHELL`, or
    /// the option alone (the shell the parser detects, as it would); nil for
    /// any other command line. The name may be unknown: the parser says so.
    public static func requestedShell(_ arguments: [String]) -> String? {
        let option = "--generate-completion-script"
        switch arguments.count {
        case 1 where arguments[0] == option:
            return CompletionShell.autodetected()?.rawValue
        case 1 where arguments[0].hasPrefix(option + "="):
            return String(arguments[0].dropFirst(option.count + 1))
        case 2 where arguments[0] == option:
            return arguments[1]
        default:
            return nil
        }
    }

    /// Each (generated snippet, replacement) for `shell`, nil when there are
    /// none (another shell, or the fish script's subcommands not found).
    static func fixes(_ shell: String, _ script: String) -> [(String, String)]? {
        switch shell {
        case "bash": return bashFixes
        case "zsh": return zshFixes
        case "fish": return fishSubcommands(script).map(fishFixes)
        default: return nil
        }
    }

    /// bash: the root's fallback, reached when the first word names no
    /// subcommand, offered only the subcommands' names. It now resets the
    /// words to all of them, lets `_kvo-run_run` complete them, and adds the
    /// names for the first word only.
    static let bashFixes = [
        (
            #"""
                    # Offer subcommand completions
                    COMPREPLY+=($(compgen -W '
            """#,
            #"""
                    # No subcommand: \#(marker),
                    # and the first word may also be a subcommand's name
                    COMPREPLY=()
                    unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                    _kvo-run_run
                    [[ "${COMP_CWORD}" -ne 1 ]] || COMPREPLY+=($(compgen -W '
            """#
        )
    ]

    /// zsh: the root's `_arguments` reached `_kvo-run_run` only after `run`.
    /// Unless the first word names a subcommand (one with a `_kvo-run_NAME`
    /// function) and is not the word being completed, `_kvo-run_run` now
    /// completes the words, and the first word goes on to the `command` state
    /// (the subcommands' names).
    static let zshFixes = [
        (
            #"""
                _arguments -w -s -S : "${arg_specs[@]}" && ret=0
                case "${state}" in
                command)

            """#,
            #"""
                # No subcommand: \#(marker),
                # and the first word may also be a subcommand's name
                if (( CURRENT == 2 || ! ${+functions[_kvo-run_${words[2]}]} )); then
                    _kvo-run_run && ret=0
                    (( CURRENT == 2 )) && state=command
                else
                    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
                fi
                case "${state}" in
                command)

            """#
        )
    ]

    /// fish: every condition parses the command line's words into the
    /// subcommands given. Unless the first word names a subcommand (and is
    /// not the word being completed), a `run` is now put before it, so that
    /// run's conditions hold; the subcommands' names are offered for the
    /// first word (instead of for the root's first positional argument).
    static func fishFixes(_ subcommands: [String]) -> [(String, String)] {
        let names = subcommands.map { "'\($0)'" }.joined(separator: " ")
        return [
            (
                #"""
                function __kvo-run_parse_tokens -S
                    set -l unparsed_tokens (__kvo-run_tokens -pc)

                """#,
                #"""
                # The first word: a subcommand's name, or run's first word
                function __kvo-run_completing_first_word
                    test (count (__kvo-run_tokens -pc)) -eq 1
                end

                function __kvo-run_parse_tokens -S
                    set -l unparsed_tokens (__kvo-run_tokens -pc)
                    # No subcommand: \#(marker)
                    if test (count $unparsed_tokens) -lt 2; or not contains -- $unparsed_tokens[2] \#(names)
                        set unparsed_tokens $unparsed_tokens[1] run $unparsed_tokens[2..]
                    end

                """#
            ),
            (
                #"-n '__kvo-run_should_offer_completions_for_positional "kvo-run" -eq 1' -fa '"#,
                #"-n '__kvo-run_completing_first_word' -fa '"#
            ),
        ]
    }

    /// The subcommands the fish script's parser dispatches to (its lines
    /// `        case 'NAME'`), nil when `run` is not among them.
    static func fishSubcommands(_ script: String) -> [String]? {
        let prefix = "        case '"
        let names = script.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(prefix), line.hasSuffix("'"), line.count > prefix.count + 1 else { return nil }
            let name = line.dropFirst(prefix.count).dropLast()
            return name.contains("'") ? nil : String(name)
        }
        return names.contains("run") ? names : nil
    }
}
