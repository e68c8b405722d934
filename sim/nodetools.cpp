// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetools.h"

#include "nastree.h"
#include "nodemachine.h"
#include "noderuntime.h"
#include "nvidiasmi.h"
#include "procfs.h"

#include <QDateTime>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

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

// xstrtol's view of a number: optional blanks and sign, then digits only.
bool parseLong(const std::string &s, long long *value)
{
    size_t i = s.find_first_not_of(" \t\n");
    if (i == std::string::npos)
        return false;
    const size_t digits = i + (s[i] == '+' || s[i] == '-' ? 1 : 0);
    if (digits >= s.size() || s.find_first_not_of("0123456789", digits) != std::string::npos)
        return false;
    *value = std::strtoll(s.c_str() + i, nullptr, 10); // clamped on overflow, as nice does
    return true;
}

// coreutils' nice: the index of the command it runs, or 0 with its whole answer in *done (an
// error, or the niceness when no command is given). The node's user is not root: a negative
// adjustment is refused with a warning and the command still runs.
size_t niceCommand(const std::vector<std::string> &argv, CommandOutput *done, std::string *warning)
{
    const std::string tryHelp = "Try 'nice --help' for more information.\n";
    std::optional<std::string> adjustment;
    size_t i = 1;
    while (i < argv.size()) {
        const std::string &s = argv[i];
        const size_t digitAt = s.size() > 1 && (s[1] == '-' || s[1] == '+') ? 2 : 1;
        if (s[0] == '-' && s.size() > digitAt &&
            std::isdigit(static_cast<unsigned char>(s[digitAt]))) {
            adjustment = s.substr(1); // the old form: nice -10 CMD
            ++i;
        } else if (s == "--") {
            ++i;
            break;
        } else if (s.rfind("--", 0) == 0) {
            const std::string name = s.substr(2, s.find('=') - 2);
            if (name.empty() || std::string("adjustment").rfind(name, 0) != 0) {
                *done = {"", "nice: unrecognized option '" + s + "'\n" + tryHelp, 125};
                return 0;
            }
            if (s.find('=') != std::string::npos) {
                adjustment = s.substr(s.find('=') + 1);
            } else if (i + 1 < argv.size()) {
                adjustment = argv[++i];
            } else {
                *done = {"", "nice: option '--adjustment' requires an argument\n" + tryHelp, 125};
                return 0;
            }
            ++i;
        } else if (s.size() > 1 && s[0] == '-') {
            if (s[1] != 'n') {
                *done = {"", "nice: invalid option -- '" + s.substr(1, 1) + "'\n" + tryHelp, 125};
                return 0;
            }
            if (s.size() > 2) {
                adjustment = s.substr(2);
            } else if (i + 1 < argv.size()) {
                adjustment = argv[++i];
            } else {
                *done = {"", "nice: option requires an argument -- 'n'\n" + tryHelp, 125};
                return 0;
            }
            ++i;
        } else {
            break;
        }
    }
    if (i >= argv.size()) {
        *done =
            adjustment
                ? CommandOutput{"", "nice: a command must be given with an adjustment\n" + tryHelp,
                                125}
                : CommandOutput{"0\n", "", 0};
        return 0;
    }
    long long value = 10;
    if (adjustment && !parseLong(*adjustment, &value)) {
        *done = {"", "nice: invalid adjustment '" + *adjustment + "'\n", 125};
        return 0;
    }
    if (value < 0)
        *warning = "nice: cannot set niceness: Permission denied\n";
    return i;
}

// util-linux's ionice (2.37, on a 5.15 kernel, as a user that is not root): -c CLASS, -n DATA,
// -t; the index of the command it runs, or 0 with its whole answer in *done. Realtime needs
// root; the kernel refuses an unknown class and class data outside 0-7.
size_t ioniceCommand(const std::vector<std::string> &argv, CommandOutput *done,
                     std::string *warning)
{
    const std::string tryHelp = "Try 'ionice --help' for more information.\n";
    long long ioclass = 2; // best-effort
    long long data = 4;
    bool setClass = false;
    bool setData = false;
    bool tolerant = false;
    size_t i = 1;
    auto option = [&](char c, const std::string &arg) {
        if (c == 'n') {
            if (!parseLong(arg, &data) || data < INT_MIN || data > INT_MAX) {
                *done = {"", "ionice: invalid class data argument: '" + arg + "'\n", 1};
                return false;
            }
            setData = true;
        } else {
            static const std::map<std::string, int> names{
                {"none", 0}, {"realtime", 1}, {"best-effort", 2}, {"idle", 3}};
            std::string lower = arg;
            for (char &ch : lower)
                ch = char(std::tolower(static_cast<unsigned char>(ch)));
            if (!arg.empty() && std::isdigit(static_cast<unsigned char>(arg[0]))) {
                if (!parseLong(arg, &ioclass) || ioclass > INT_MAX) {
                    *done = {"", "ionice: invalid class argument: '" + arg + "'\n", 1};
                    return false;
                }
            } else if (names.count(lower)) {
                ioclass = names.at(lower);
            } else {
                *done = {"", "ionice: unknown scheduling class: '" + arg + "'\n", 1};
                return false;
            }
            setClass = true;
        }
        return true;
    };
    for (; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        if (s == "--") {
            ++i;
            break;
        }
        if (s.rfind("--", 0) == 0) {
            const size_t eq = s.find('=');
            const std::string name =
                s.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            if (name == "ignore") {
                tolerant = true;
                continue;
            }
            if (name != "class" && name != "classdata") {
                *done = {"", "ionice: unrecognized option '" + s + "'\n" + tryHelp, 1};
                return 0;
            }
            std::string arg;
            if (eq != std::string::npos) {
                arg = s.substr(eq + 1);
            } else if (i + 1 < argv.size()) {
                arg = argv[++i];
            } else {
                *done = {"", "ionice: option '--" + name + "' requires an argument\n" + tryHelp, 1};
                return 0;
            }
            if (!option(name == "class" ? 'c' : 'n', arg))
                return 0;
            continue;
        }
        if (s.size() < 2 || s[0] != '-')
            break;
        // Bundled short options, as getopt takes them: -tc3.
        for (size_t k = 1; k < s.size(); ++k) {
            const char c = s[k];
            if (c == 't') {
                tolerant = true;
                continue;
            }
            if (c != 'c' && c != 'n') {
                *done = {"", "ionice: invalid option -- '" + std::string(1, c) + "'\n" + tryHelp,
                         1};
                return 0;
            }
            std::string arg;
            if (k + 1 < s.size()) {
                arg = s.substr(k + 1);
            } else if (i + 1 < argv.size()) {
                arg = argv[++i];
            } else {
                *done = {"",
                         "ionice: option requires an argument -- '" + std::string(1, c) + "'\n" +
                             tryHelp,
                         1};
                return 0;
            }
            if (!option(c, arg))
                return 0;
            break;
        }
    }
    if (!tolerant) {
        if (ioclass == 0 && setData)
            *warning += "ionice: ignoring given class data for none class\n";
        else if (ioclass == 3 && setData)
            *warning += "ionice: ignoring given class data for idle class\n";
        else if (ioclass < 0 || ioclass > 3)
            *warning += "ionice: unknown prio class " + std::to_string(ioclass) + "\n";
    }
    if (i >= argv.size()) {
        // Without a command: its own priority (never set), or a mistake.
        *done = setClass || setData
                    ? CommandOutput{"", *warning + "ionice: bad usage\n" + tryHelp, 1}
                    : CommandOutput{"none: prio 0\n", "", 0};
        return 0;
    }
    const bool badData = (ioclass == 1 || ioclass == 2) && (data < 0 || data > 7);
    const char *refused = ioclass == 1                            ? "Operation not permitted"
                          : ioclass < 0 || ioclass > 3 || badData ? "Invalid argument"
                                                                  : nullptr;
    if (refused && !tolerant) {
        *done = {"", *warning + "ionice: ioprio_set failed: " + refused + "\n", 1};
        return 0;
    }
    return i;
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

CommandOutput NodeTools::dmesg(const NodeMachine &m, const std::vector<std::string> &argv)
{
    bool iso = false;
    for (size_t i = 1; i < argv.size(); ++i) {
        if (argv[i] == "--time-format" && i + 1 < argv.size()) {
            const std::string &format = argv[++i];
            if (format != "iso" && format != "raw")
                return {"", "dmesg: unknown time format: " + format + "\n", 1};
            iso = format == "iso";
        } else if (argv[i] == "--time-format=iso") {
            iso = true;
        } else {
            return {"", "dmesg: unrecognized option '" + argv[i] + "'\n", 1};
        }
    }
    std::string out;
    char buf[64];
    for (const auto &[atMs, message] : m.kernelLog) {
        if (iso) {
            const QDateTime t = QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC);
            std::snprintf(buf, sizeof buf, "%s,%03d%03d+00:00 ",
                          t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")).toStdString().c_str(),
                          int(atMs % 1000), int((atMs * 7) % 1000));
        } else {
            const qint64 since = std::max<qint64>(0, atMs - m.bootedAtMs);
            std::snprintf(buf, sizeof buf, "[%5lld.%06lld] ", since / 1000, (since % 1000) * 1000);
        }
        out += buf + message + "\n";
    }
    return {out, "", 0};
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
    if (argv[0] == "nice" || argv[0] == "ionice") {
        CommandOutput done;
        std::string warning;
        const size_t at = argv[0] == "nice" ? niceCommand(argv, &done, &warning)
                                            : ioniceCommand(argv, &done, &warning);
        if (at == 0)
            return done;
        // The command runs with env's variables, when env came first.
        std::vector<std::string> inner;
        if (!env.empty()) {
            inner.push_back("env");
            for (const auto &[k, v] : env)
                inner.push_back(k + "=" + v);
        }
        inner.insert(inner.end(), argv.begin() + long(at), argv.end());
        CommandOutput r = runSimple(node, inner, nowMs, input);
        // They exec the command themselves: a missing one is theirs to report, not sh's.
        const std::string &word = argv[at];
        if (r.status == 127 && r.err == "sh: 1: " + word + ": not found\n")
            r.err = argv[0] == "nice"
                        ? "nice: '" + word + "': No such file or directory\n"
                        : "ionice: failed to execute " + word + ": No such file or directory\n";
        r.err = warning + r.err;
        return r;
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
        // The NAS's mounts fill and empty with the tree gpudesk writes and removes.
        std::vector<DiskMount> disks = m.disks;
        if (m_nas)
            for (DiskMount &d : disks)
                if (d.mount.rfind("/mnt/", 0) == 0)
                    d.used1k = std::clamp<qint64>(d.used1k + m_nas->allocatedChange(d.mount) / 1024,
                                                  0, d.blocks1k);
        const std::string out = ProcFs::df(disks, paths, &err);
        return {out, err, err.empty() ? 0 : 1};
    }
    if (cmd == "kill")
        return kill(node, argv, nowMs);
    if (cmd == "find")
        return m_nas ? m_nas->find(argv) : notFound();
    if (m_runtime && cmd == "nerdctl")
        return m_runtime->nerdctl(node, argv, env, input, nowMs);
    if (m_runtime && cmd == "mkdir")
        return m_runtime->mkdir(node, argv);
    if (m_runtime && cmd == "rm")
        return m_runtime->rm(node, argv);
    if (cmd == "dmesg")
        return dmesg(m, argv);
    if (cmd == "nvidia-smi") {
        if (m.gpuProduct.empty() || m.driverState == "missing")
            return notFound();
        return NvidiaSmi::run(m, std::vector<std::string>(argv.begin() + 1, argv.end()), nowMs);
    }
    return notFound();
}

} // namespace sim
