/**
 * Reading a bash command line for the `runBash` rules: its simple commands
 * ({@link splitCommandLine}) and, for deny rules, whether each one is a plain command whose
 * program can be read from the text as written ({@link plainCommand}).
 *
 * @module
 */

/** Collapse runs of spaces and tabs to one space and trim: how rules and segments are compared. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/[ \t]+/g, " ");
}

/**
 * Split a command line into the simple commands a rule must each admit, on `;`, `&&`, `||`,
 * `|`, `&` and newlines outside quotes. Returns `undefined` when no rule may admit the line at
 * all: command substitution (`$(...)`, backticks), process substitution, or a redirection other
 * than a descriptor copy such as `2>&1`.
 *
 * @param command - the command line as the model wrote it.
 * @returns the simple commands, spaces collapsed, empty ones dropped; or `undefined`.
 * @example
 * ```ts
 * splitCommandLine("git status && npm test | tail"); // ["git status", "npm test", "tail"]
 * splitCommandLine("cat < x"); // undefined
 * ```
 */
export function splitCommandLine(command: string): string[] | undefined {
  if (/`|\$\(|<\(|>\(/.test(command)) return undefined;
  const segments: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (quote !== undefined) {
      current += char;
      if (char === "\\" && quote === '"' && index + 1 < command.length) {
        current += command[index + 1];
        index += 1;
      } else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
    } else if (char === "\\" && index + 1 < command.length) {
      current += char + command[index + 1];
      index += 1;
    } else if (char === ";" || char === "|" || char === "&" || char === "\n") {
      if (char === "&" && command[index - 1] === ">") {
        current += char;
        continue;
      }
      segments.push(current);
      current = "";
    } else if (char === ">" || char === "<") {
      if (char === ">" && command[index + 1] === "&" && /[0-9-]/.test(command[index + 2] ?? "")) {
        current += char;
        continue;
      }
      return undefined;
    } else current += char;
  }
  if (quote !== undefined) return undefined;
  segments.push(current);
  return segments.map(normalizeCommand).filter((segment) => segment !== "");
}

/** A command word the shell runs as written: letters, digits and `_ . / + : -`. */
const PLAIN_WORD = /^[A-Za-z0-9_./+:-]+$/;

/** A leading assignment with a value the shell takes as written (the plain word set, `=`, `,`, `@`, `%`, or empty). */
const PLAIN_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_./+:,@%=-]*$/;

/** Shell keywords and reserved words: a command starting with one is compound syntax, not a program. */
export const SHELL_KEYWORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "in",
  "function",
  "select",
  "time",
  "coproc",
  "{",
  "}",
  "(",
  ")",
  "!",
  "[[",
  "]]",
]);

/**
 * Programs and builtins that run another command taken from their arguments (or define one to
 * run later): the command a deny rule names would hide in their arguments. Besides these,
 * `find` with `-exec`, `-execdir`, `-ok` or `-okdir`.
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  "eval",
  "exec",
  "command",
  "builtin",
  "env",
  "xargs",
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "source",
  ".",
  "nohup",
  "nice",
  "timeout",
  "sudo",
  "doas",
  "setsid",
  "stdbuf",
  "alias",
  "trap",
  "watch",
  "parallel",
]);

const FIND_RUNNER_OPTIONS: ReadonlySet<string> = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** What {@link plainCommand} finds in a simple command. */
export type PlainCommand =
  | {
      readonly plain: true;
      /** The command from its command word on (leading assignments stripped); `""` for assignments alone. */
      readonly command: string;
      /** The same with the command word replaced by its basename (`/bin/rm x` → `rm x`). */
      readonly byName: string;
    }
  | {
      readonly plain: false;
      /** Why not, in words that follow "the command": `starts with the shell keyword "if"`. */
      readonly reason: string;
    };

/**
 * Whether a simple command (a segment of {@link splitCommandLine}) runs the program its text
 * names, so a `runBash` deny rule can be checked against it as written. Leading `NAME=value`
 * assignments with a plain value are stripped; the command word must then be plain (letters,
 * digits, `_ . / + : -`: no quotes, backslashes, `$`, braces, parentheses or glob characters),
 * not a shell keyword or reserved word ({@link SHELL_KEYWORDS}), and not a program that runs
 * another command from its arguments ({@link COMMAND_RUNNERS}, `find -exec`); and no parenthesis
 * may stand outside quotes anywhere in it (a function definition or a subshell).
 *
 * This reads the line as written, nothing more: a program that runs code from its own
 * arguments or from a script (awk's `system()`, `python3 -c`, a script file) is not followed.
 *
 * @param segment - one simple command, spaces collapsed (as {@link splitCommandLine} returns it).
 * @returns `{ plain: true, command, byName }`, or `{ plain: false, reason }`.
 * @example
 * ```ts
 * plainCommand("FOO=1 /bin/rm a.txt"); // { plain: true, command: "/bin/rm a.txt", byName: "rm a.txt" }
 * plainCommand("eval 'cat a.txt'"); // { plain: false, reason: 'runs "eval", which runs a command from its arguments' }
 * ```
 */
export function plainCommand(segment: string): PlainCommand {
  const words = normalizeCommand(segment).split(" ");
  let first = 0;
  while (first < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[first] as string)) {
    const word = words[first] as string;
    if (!PLAIN_ASSIGNMENT.test(word)) {
      return { plain: false, reason: `starts with the assignment ${JSON.stringify(word)}, whose value is not plain` };
    }
    first += 1;
  }
  const rest = words.slice(first).filter((word) => word !== "");
  const word = rest[0];
  if (word === undefined) return { plain: true, command: "", byName: "" };
  if (SHELL_KEYWORDS.has(word))
    return { plain: false, reason: `starts with the shell keyword ${JSON.stringify(word)}` };
  if (!PLAIN_WORD.test(word)) {
    return { plain: false, reason: `starts with ${JSON.stringify(word)}, which is not a plain command name` };
  }
  const name = word.slice(word.lastIndexOf("/") + 1);
  if (COMMAND_RUNNERS.has(name) || COMMAND_RUNNERS.has(word)) {
    return { plain: false, reason: `runs ${JSON.stringify(name)}, which runs a command from its arguments` };
  }
  if (name === "find" && rest.some((argument) => FIND_RUNNER_OPTIONS.has(argument.replace(/["'\\]/g, "")))) {
    return { plain: false, reason: `runs "find" with an option that runs a command (-exec, -execdir, -ok, -okdir)` };
  }
  if (hasUnquotedParenthesis(segment)) {
    return { plain: false, reason: "has a parenthesis outside quotes (a function definition or a subshell)" };
  }
  const command = rest.join(" ");
  return { plain: true, command, byName: name === word ? command : name + command.slice(word.length) };
}

/** Whether `(` or `)` stands outside quotes and not after a backslash. */
function hasUnquotedParenthesis(segment: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index];
    if (quote !== undefined) {
      if (char === "\\" && quote === '"') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "\\") index += 1;
    else if (char === "'" || char === '"') quote = char;
    else if (char === "(" || char === ")") return true;
  }
  return false;
}
