// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetools.h"

#include "nodemachine.h"
#include "noderuntime.h"
#include "nvidiasmi.h"
#include "procfs.h"

#include <cstdlib>
#include <map>

namespace sim {

namespace {

// dash's signal names (kill -l), by number.
const std::map<std::string, int> &signalNumbers()
{
    static const std::map<std::string, int> names{
        {"HUP", 1},     {"INT", 2},   {"QUIT", 3},   {"ILL", 4},   {"TRAP", 5},  {"ABRT", 6},
        {"BUS", 7},     {"FPE", 8},   {"KILL", 9},   {"USR1", 10}, {"SEGV", 11}, {"USR2", 12},
        {"PIPE", 13},   {"ALRM", 14}, {"TERM", 15},  {"CHLD", 17}, {"CONT", 18}, {"STOP", 19},
        {"TSTP", 20},   {"TTIN", 21}, {"TTOU", 22},  {"URG", 23},  {"XCPU", 24}, {"XFSZ", 25},
        {"VTALRM", 26}, {"PROF", 27}, {"WINCH", 28}, {"IO", 29},   {"POLL", 29}, {"PWR", 30},
        {"SYS", 31}};
    return names;
}

// A signal name or number as dash's kill takes it; -1 when it is neither.
int signalOf(const std::string &spec)
{
    if (!spec.empty() && spec.find_first_not_of("0123456789") == std::string::npos)
        return spec.size() <= 2 && std::atoi(spec.c_str()) <= 64 ? std::atoi(spec.c_str()) : -1;
    const auto it = signalNumbers().find(spec);
    return it == signalNumbers().end() ? -1 : it->second;
}

} // namespace

bool NodeTools::splitWords(const std::string &line, std::vector<std::string> *words,
                           std::string *error)
{
    std::string cur;
    bool inWord = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\'') {
            const size_t end = line.find('\'', i + 1);
            if (end == std::string::npos) {
                *error = "Syntax error: Unterminated quoted string";
                return false;
            }
            cur += line.substr(i + 1, end - i - 1);
            inWord = true;
            i = end;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size() &&
                    std::string("\"\\$`").find(line[j + 1]) != std::string::npos)
                    ++j;
                cur += line[j];
            }
            if (j >= line.size()) {
                *error = "Syntax error: Unterminated quoted string";
                return false;
            }
            inWord = true;
            i = j;
        } else if (c == '\\' && i + 1 < line.size()) {
            cur += line[++i];
            inWord = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord)
                words->push_back(cur);
            cur.clear();
            inWord = false;
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (inWord)
        words->push_back(cur);
    return true;
}

bool NodeTools::readsInput(const std::string &line)
{
    return line.find("--password-stdin") != std::string::npos;
}

CommandOutput NodeTools::run(const std::string &node, const std::string &line, qint64 nowMs,
                             const std::string &input)
{
    // Split on ; && || outside quotes, then run each part with sh's short-circuit rules.
    struct Part
    {
        std::string text;
        std::string op; // operator before this part
    };
    std::vector<Part> parts;
    std::string cur;
    std::string pendingOp;
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            cur += c;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            cur += c;
        } else if (c == ';' || c == '\n') {
            parts.push_back({cur, pendingOp});
            cur.clear();
            pendingOp = ";";
        } else if ((c == '&' || c == '|') && i + 1 < line.size() && line[i + 1] == c) {
            parts.push_back({cur, pendingOp});
            cur.clear();
            pendingOp = std::string(2, c);
            ++i;
        } else if (c == '&' && i > 0 && line[i - 1] == '>') {
            cur += c; // 2>&1
        } else if (c == '|' || c == '&' || c == '`' || c == '$' || c == '<') {
            // Pipes, background jobs and substitutions are not part of any probe template.
            return {"", "sh: 1: Syntax error: \"" + std::string(1, c) + "\" unexpected\n", 2};
        } else {
            cur += c;
        }
    }
    parts.push_back({cur, pendingOp});
    CommandOutput total;
    int status = 0;
    for (const auto &p : parts) {
        if (p.op == "&&" && status != 0)
            continue;
        if (p.op == "||" && status == 0)
            continue;
        std::vector<std::string> words;
        std::string err;
        if (!splitWords(p.text, &words, &err))
            return {total.out, total.err + "sh: 1: " + err + "\n", 2};
        bool errToNull = false;
        bool errToOut = false;
        std::vector<std::string> argv;
        for (const auto &w : words) {
            if (w == "2>/dev/null")
                errToNull = true;
            else if (w == "2>&1")
                errToOut = true;
            else if (w == ">/dev/null" || w == "1>/dev/null")
                continue;
            else
                argv.push_back(w);
        }
        if (argv.empty())
            continue;
        CommandOutput r = runSimple(node, argv, nowMs, input);
        total.out += r.out;
        if (errToOut)
            total.out += r.err;
        else if (!errToNull)
            total.err += r.err;
        status = r.status;
    }
    total.status = status;
    return total;
}

CommandOutput NodeTools::kill(const std::string &node, const std::vector<std::string> &argv,
                              qint64 nowMs)
{
    // dash's kill: -s SIGSPEC, -SIGSPEC or -SIGNUM, then PIDs; its words for each mistake.
    const CommandOutput usage{"",
                              "sh: 1: kill: Usage: kill [-s sigspec | -signum | -sigspec] "
                              "[pid | job]... or\nkill -l [exitstatus]\n",
                              2};
    int sig = 15;
    size_t i = 1;
    if (i < argv.size() && argv[i] == "-s") {
        if (i + 1 >= argv.size())
            return {"", "sh: 1: kill: No arg for -s option\n", 2};
        sig = signalOf(argv[i + 1]);
        if (sig < 0)
            return {"", "sh: 1: kill: invalid signal number or name: " + argv[i + 1] + "\n", 2};
        i += 2;
    } else if (i < argv.size() && argv[i] == "--") {
        ++i;
    } else if (i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-') {
        sig = signalOf(argv[i].substr(1));
        if (sig < 0)
            return {"", "sh: 1: kill: Illegal option -" + argv[i].substr(1, 1) + "\n", 2};
        ++i;
    }
    if (i >= argv.size())
        return usage;
    CommandOutput r;
    for (; i < argv.size(); ++i) {
        const std::string &word = argv[i];
        if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos) {
            // sh_error: the builtin stops here.
            r.err += "sh: 1: kill: Illegal number: " + word + "\n";
            r.status = 2;
            return r;
        }
        const int pid = std::atoi(word.c_str());
        bool exists = false;
        if (sig == 9)
            exists = m_machines->signal(node, pid, MachineRegistry::Signal::Kill, nowMs);
        else if (sig == 0 || sig == 17 || sig == 18 || sig == 19 || sig == 20 || sig == 23 ||
                 sig == 28)
            // Signals a training process does not die of (or only checks that it exists).
            exists = m_machines->exists(node, pid);
        else
            exists = m_machines->signal(node, pid, MachineRegistry::Signal::Term, nowMs);
        if (!exists) {
            // strerror() and warnx's own newline: dash prints an empty line after it.
            r.err += "sh: 1: kill: No such process\n\n";
            r.status = 1;
        }
    }
    return r;
}

CommandOutput NodeTools::runSimple(const std::string &node, std::vector<std::string> argv,
                                   qint64 nowMs, const std::string &input)
{
    // env NAME=VALUE… COMMAND: the variables only the container runtime's tools read.
    std::map<std::string, std::string> env;
    if (argv[0] == "env") {
        size_t i = 1;
        for (; i < argv.size() && argv[i].find('=') != std::string::npos; ++i)
            env[argv[i].substr(0, argv[i].find('='))] = argv[i].substr(argv[i].find('=') + 1);
        if (i >= argv.size())
            return {"", "", 0};
        argv.erase(argv.begin(), argv.begin() + long(i));
    }
    const auto machine = m_machines->snapshot(node);
    if (!machine)
        return {"", "sh: 1: node is gone\n", 255};
    const NodeMachine &m = *machine;
    const std::string &cmd = argv[0];
    auto notFound = [&] { return CommandOutput{"", "sh: 1: " + cmd + ": not found\n", 127}; };
    if (cmd == "true")
        return {};
    if (cmd == "false")
        return {"", "", 1};
    if (cmd == "echo") {
        std::string s;
        for (size_t i = 1; i < argv.size(); ++i)
            s += (i > 1 ? " " : "") + argv[i];
        return {s + "\n", "", 0};
    }
    if (cmd == "nproc")
        return {std::to_string(m.cpus) + "\n", "", 0};
    if (cmd == "hostname")
        return {m.hostname + "\n", "", 0};
    if (cmd == "uname") {
        const std::string release = m.kernel;
        if (argv.size() > 1 && argv[1] == "-r")
            return {release + "\n", "", 0};
        if (argv.size() > 1 && argv[1] == "-n")
            return {m.hostname + "\n", "", 0};
        if (argv.size() > 1 && argv[1] == "-a")
            return {"Linux " + m.hostname + " " + release +
                        " #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023 x86_64 x86_64 x86_64 "
                        "GNU/Linux\n",
                    "", 0};
        return {"Linux\n", "", 0};
    }
    if (cmd == "cat") {
        CommandOutput r;
        for (size_t i = 1; i < argv.size(); ++i) {
            if (const auto text = ProcFs::read(m, argv[i], nowMs)) {
                r.out += *text;
            } else {
                r.err += "cat: " + argv[i] + ": No such file or directory\n";
                r.status = 1;
            }
        }
        return r;
    }
    if (cmd == "df") {
        std::vector<std::string> paths;
        for (size_t i = 1; i < argv.size(); ++i) {
            if (argv[i] == "-P" || argv[i] == "-k" || argv[i] == "-Pk" || argv[i] == "-kP")
                continue;
            if (argv[i][0] == '-')
                return {"",
                        "df: invalid option -- '" + argv[i].substr(1) +
                            "'\nTry 'df --help' for more information.\n",
                        1};
            paths.push_back(argv[i]);
        }
        std::string err;
        const std::string out = ProcFs::df(m, paths, &err);
        return {out, err, err.empty() ? 0 : 1};
    }
    if (cmd == "kill")
        return kill(node, argv, nowMs);
    if (m_runtime && cmd == "nerdctl")
        return m_runtime->nerdctl(node, argv, env, input, nowMs);
    if (m_runtime && cmd == "mkdir")
        return m_runtime->mkdir(node, argv);
    if (m_runtime && cmd == "rm")
        return m_runtime->rm(node, argv);
    if (cmd == "nvidia-smi") {
        if (m.gpuProduct.empty() || m.driverState == "missing")
            return notFound();
        return NvidiaSmi::run(m, std::vector<std::string>(argv.begin() + 1, argv.end()), nowMs);
    }
    return notFound();
}

} // namespace sim
