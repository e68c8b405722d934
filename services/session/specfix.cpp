// SPDX-License-Identifier: GPL-3.0-or-later
#include "specfix.h"

#include "boundedjson.h"
#include "launchscripts.h"
#include "quantity.h"
#include "specfixes.h"
#include "yamlconvert.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <vector>

namespace gpudesk {

namespace {

using json = nlohmann::json;

// The pod specs an object holds, by kind's layout rather than by name: whatever has them.
void podSpecs(json &o, std::vector<json *> *out)
{
    if (!o.is_object() || !o.contains("spec") || !o["spec"].is_object())
        return;
    json &spec = o["spec"];
    if (spec.contains("containers")) { // a Pod, or a pod template's own
        out->push_back(&spec);
        return;
    }
    if (spec.contains("template"))
        podSpecs(spec["template"], out);
    if (spec.contains("tasks") && spec["tasks"].is_array()) // Volcano Job
        for (json &t : spec["tasks"])
            if (t.is_object() && t.contains("template"))
                podSpecs(t["template"], out);
    for (const char *replicas : {"pytorchReplicaSpecs", "mpiReplicaSpecs", "tfReplicaSpecs"})
        if (spec.contains(replicas) && spec[replicas].is_object())
            for (auto &[role, r] : spec[replicas].items())
                if (r.is_object() && r.contains("template"))
                    podSpecs(r["template"], out);
}

QString chosenSize(const json &spec)
{
    const json &c = spec["containers"].is_array() && !spec["containers"].empty()
                        ? spec["containers"][0]
                        : json::object();
    if (c.contains("resources") && c["resources"].contains("limits") &&
        c["resources"]["limits"].contains("memory") &&
        c["resources"]["limits"]["memory"].is_string()) {
        const QString limit =
            QString::fromStdString(c["resources"]["limits"]["memory"].get<std::string>());
        if (const auto milli = quantity::parseMilliOf(QStringView(limit)); milli && *milli > 0)
            return QString::number(*milli / 1000 / 2 / (1024 * 1024)) + QStringLiteral("Mi");
    }
    return QStringLiteral("16Gi");
}

// The object of `yaml` with `edit` (a spec → whether it changed it) run on each pod spec it holds,
// as YAML again; "" with `error` when it cannot be read, holds no pod template, or `edit` changed
// none (then `unchanged` says why).
template <class Edit>
QString editPodSpecs(const QString &yaml, const char *unchanged, QString *error, Edit edit)
{
    const QByteArray text = objectJson(yaml, error);
    if (text.isEmpty())
        return {};
    json o = parseBoundedJson(text);
    std::vector<json *> specs;
    podSpecs(o, &specs);
    if (specs.empty()) {
        *error = QCoreApplication::translate("gpudesk::SpecFix", "It holds no pod template.");
        return {};
    }
    bool changed = false;
    for (json *spec : specs)
        changed |= edit(*spec);
    if (!changed) {
        *error = QCoreApplication::translate("gpudesk::SpecFix", unchanged);
        return {};
    }
    return objectYaml(QByteArray::fromStdString(o.dump()), false, error);
}

} // namespace

QString SpecFix::sharedMemory(const QString &yaml, const QString &sizeLimit, QString *error)
{
    return editPodSpecs(yaml, "", error, [&sizeLimit](json &spec) {
        const std::string size = (sizeLimit.isEmpty() ? chosenSize(spec) : sizeLimit).toStdString();
        // The volume mounted at /dev/shm now (if any) is the one replaced: its name is kept.
        std::string name = "dshm";
        for (json &c : spec["containers"])
            if (c.is_object() && c.contains("volumeMounts") && c["volumeMounts"].is_array())
                for (const json &m : c["volumeMounts"])
                    if (m.is_object() && m.value("mountPath", "") == "/dev/shm")
                        name = m.value("name", name);
        json kept = json::array();
        for (json &v : spec.value("volumes", json::array()))
            if (!v.is_object() || v.value("name", "") != name)
                kept.push_back(v);
        kept.push_back({{"name", name}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", size}}}});
        spec["volumes"] = kept;
        for (json &c : spec["containers"]) {
            if (!c.is_object())
                continue;
            json mounts = json::array();
            for (json &m : c.value("volumeMounts", json::array()))
                if (!m.is_object() || m.value("mountPath", "") != "/dev/shm")
                    mounts.push_back(m);
            mounts.push_back({{"name", name}, {"mountPath", "/dev/shm"}});
            c["volumeMounts"] = mounts;
        }
        return true;
    });
}

QString SpecFix::memoryLimit(const QString &yaml, QString *error)
{
    return editPodSpecs(
        yaml, QT_TRANSLATE_NOOP("gpudesk::SpecFix", "No container has a memory limit to raise."),
        error, [](json &spec) {
            bool raised = false;
            for (json &c : spec["containers"]) {
                if (!c.is_object() || !c.contains("resources") || !c["resources"].is_object())
                    continue;
                json &r = c["resources"];
                if (!r.contains("limits") || !r["limits"].is_object() ||
                    !r["limits"].contains("memory") || !r["limits"]["memory"].is_string())
                    continue;
                const QString old =
                    QString::fromStdString(r["limits"]["memory"].get<std::string>());
                const auto milli = quantity::parseMilliOf(QStringView(old));
                if (!milli || *milli <= 0)
                    continue;
                constexpr qint64 GiB = 1024LL * 1024 * 1024;
                const qint64 bytes = *milli / 1000;
                const std::string to = std::to_string((bytes * 3 / 2 + GiB - 1) / GiB) + "Gi";
                r["limits"]["memory"] = to;
                if (r.contains("requests") && r["requests"].is_object() &&
                    r["requests"].value("memory", "") == old.toStdString())
                    r["requests"]["memory"] = to;
                raised = true;
            }
            return raised;
        });
}

QString SpecFix::removeVariable(const QString &yaml, const QString &name, QString *error)
{
    const std::string n = name.toStdString();
    return editPodSpecs(
        yaml, QT_TRANSLATE_NOOP("gpudesk::SpecFix", "No container sets the variable to remove."),
        error, [&n](json &spec) {
            bool removed = false;
            for (const char *list : {"containers", "initContainers"}) {
                if (!spec.contains(list) || !spec[list].is_array())
                    continue;
                for (json &c : spec[list]) {
                    if (!c.is_object() || !c.contains("env") || !c["env"].is_array())
                        continue;
                    json kept = json::array();
                    for (const json &v : c["env"])
                        if (v.is_object() && v.value("name", "") == n)
                            removed = true;
                        else
                            kept.push_back(v);
                    if (kept.empty())
                        c.erase("env");
                    else
                        c["env"] = std::move(kept);
                }
            }
            return removed;
        });
}

namespace {

// A word that runs the script after it: an interpreter (the launch scripts' reading), or the
// shell's exec, source and ".".
bool isInterpreter(const std::string &word)
{
    return word == "exec" || word == "source" || word == "." ||
           LaunchScripts::isInterpreter(QString::fromStdString(word));
}

// Whether the word ending right before `at` in a shell line puts a program there: the line's
// start, a list's (`;`, `&&`, `||`, `|`, `(`, a newline), or an interpreter's first argument
// after its options (`bash -x`, `exec`, `python -u`).
bool runsAt(const std::string &line, size_t at)
{
    size_t i = at;
    const auto skipSpace = [&] {
        while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t'))
            --i;
    };
    for (;;) {
        skipSpace();
        if (i == 0 || std::string(";&|(\n").find(line[i - 1]) != std::string::npos)
            return true;
        size_t start = i;
        while (start > 0 && std::string(" \t;&|(\n").find(line[start - 1]) == std::string::npos)
            --start;
        const std::string word = line.substr(start, i - start);
        static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
        if (!word.empty() &&
            (word[0] == '-' || assignment.match(QString::fromStdString(word)).hasMatch())) {
            i = start; // an option of the interpreter, or a variable set for the command
            continue;
        }
        return isInterpreter(word);
    }
}

// `line` with `path` replaced by `to` wherever it stands as a whole word a program runs (see
// runsAt; optionally quoted): a path written to (`rm`, `cp x …`, `> …`) is left. Whether it did.
bool replaceWord(std::string &line, const std::string &path, const std::string &to)
{
    static const std::string after = " \t\n'\";&|)";
    bool replaced = false;
    for (size_t at = line.find(path); at != std::string::npos; at = line.find(path, at)) {
        const size_t end = at + path.size();
        const bool quoted = at > 0 && (line[at - 1] == '"' || line[at - 1] == '\'');
        const size_t wordStart = quoted ? at - 1 : at;
        if ((wordStart == 0 ||
             std::string(" \t\n;&|(").find(line[wordStart - 1]) != std::string::npos) &&
            (end == line.size() || after.find(line[end]) != std::string::npos) &&
            runsAt(line, wordStart)) {
            line.replace(at, path.size(), to);
            at += to.size();
            replaced = true;
        } else {
            at = end;
        }
    }
    return replaced;
}

// A command's words (command, then args; exec form): `path` replaced where it is the program,
// or an interpreter's script after its options.
bool replaceInCommand(json &c, const std::string &path, const std::string &to, bool shellSafe)
{
    std::vector<json *> words;
    for (const char *key : {"command", "args"})
        if (c.contains(key) && c[key].is_array())
            for (json &w : c[key])
                words.push_back(&w);
    bool changed = false;
    for (size_t i = 0; i < words.size(); ++i) {
        if (!words[i]->is_string())
            continue;
        std::string w = words[i]->get<std::string>();
        if (w == path) {
            size_t k = i;
            while (k > 0 && words[k - 1]->is_string() &&
                   words[k - 1]->get<std::string>().rfind('-', 0) == 0)
                --k;
            if (i == 0 || (k > 0 && words[k - 1]->is_string() &&
                           isInterpreter(words[k - 1]->get<std::string>()))) {
                *words[i] = to;
                changed = true;
            }
        } else if (shellSafe && w.find(path) != std::string::npos && replaceWord(w, path, to)) {
            // A shell's line: `to` is spliced in as it is, so only a path a shell reads as one
            // plain word.
            *words[i] = w;
            changed = true;
        }
    }
    return changed;
}

} // namespace

QString SpecFix::resolvedPath(const QString &yaml, const SpecFixes::ResolvedPath &fix,
                              QString *error)
{
    const std::string path = fix.path.toStdString();
    const std::string to = fix.resolved.toStdString();
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./@%+,:=-]+$"));
    const bool shellSafe = plain.match(fix.resolved).hasMatch();
    // The command runs the script by its path: it runs the file itself now. Else (a relative
    // spelling, `cd /workspace && ./start.sh`) the link is made to work where it leads.
    if (!fix.resolved.isEmpty()) {
        QString unused;
        const QString out = editPodSpecs(yaml, "", &unused, [&](json &spec) {
            bool changed = false;
            for (const char *list : {"containers", "initContainers"})
                if (spec.contains(list) && spec[list].is_array())
                    for (json &c : spec[list])
                        if (c.is_object())
                            changed |= replaceInCommand(c, path, to, shellSafe);
            return changed;
        });
        if (!out.isEmpty())
            return out;
    }
    if (fix.mountNode.isEmpty() || fix.mountAt.isEmpty()) {
        *error = QCoreApplication::translate("gpudesk::SpecFix",
                                             "The command does not name %1 by that path: run %2 "
                                             "instead by hand.")
                     .arg(fix.path, fix.resolved);
        return {};
    }
    const std::string node = fix.mountNode.toStdString();
    const std::string at = fix.mountAt.toStdString();
    return editPodSpecs(yaml, "", error, [&](json &spec) {
        // A volume of its own, named so as not to take another's name.
        std::string name = "launch-script";
        const auto taken = [&spec](const std::string &n) {
            for (const json &v : spec.value("volumes", json::array()))
                if (v.is_object() && v.value("name", "") == n)
                    return true;
            return false;
        };
        for (int i = 2; taken(name); ++i)
            name = "launch-script-" + std::to_string(i);
        if (!spec.contains("volumes") || !spec["volumes"].is_array())
            spec["volumes"] = json::array();
        spec["volumes"].push_back(
            {{"name", name}, {"hostPath", {{"path", node}, {"type", "Directory"}}}});
        for (const char *list : {"containers", "initContainers"})
            if (spec.contains(list) && spec[list].is_array())
                for (json &c : spec[list])
                    if (c.is_object()) {
                        if (!c.contains("volumeMounts") || !c["volumeMounts"].is_array())
                            c["volumeMounts"] = json::array();
                        c["volumeMounts"].push_back(
                            {{"name", name}, {"mountPath", at}, {"readOnly", true}});
                    }
        return true;
    });
}

QString SpecFix::apply(const QString &fix, const QString &yaml, QString *error)
{
    if (const auto resolved = SpecFixes::resolvedPathOf(fix))
        return resolvedPath(yaml, *resolved, error);
    if (fix == QLatin1String("shared-memory"))
        return sharedMemory(yaml, QString(), error);
    if (fix == QLatin1String("memory-limit"))
        return memoryLimit(yaml, error);
    if (const QString name = SpecFixes::removedVariable(fix); !name.isEmpty())
        return removeVariable(yaml, name, error);
    *error =
        QCoreApplication::translate("gpudesk::SpecFix", "There is no fix to make in the spec.");
    return {};
}

} // namespace gpudesk
