// SPDX-License-Identifier: GPL-3.0-or-later
#include "specfix.h"

#include "boundedjson.h"
#include "quantity.h"
#include "specfixes.h"
#include "yamlconvert.h"

#include <QCoreApplication>

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

// `line` with `path` replaced by `to` wherever it stands as a whole word of a command line (an
// exec-form element, or a word of a shell's -c line: after a start, a space, a quote, `;`, `&`,
// `|`, `(`, `=`; before an end, a space, a quote, `;`, `&`, `|`, `)`). Whether it did.
bool replaceWord(std::string &line, const std::string &path, const std::string &to)
{
    static const std::string before = " \t\n'\";&|(=`";
    static const std::string after = " \t\n'\";&|)`";
    bool replaced = false;
    for (size_t at = line.find(path); at != std::string::npos; at = line.find(path, at)) {
        const size_t end = at + path.size();
        if ((at == 0 || before.find(line[at - 1]) != std::string::npos) &&
            (end == line.size() || after.find(line[end]) != std::string::npos)) {
            line.replace(at, path.size(), to);
            at += to.size();
            replaced = true;
        } else {
            at = end;
        }
    }
    return replaced;
}

} // namespace

QString SpecFix::resolvedPath(const QString &yaml, const SpecFixes::ResolvedPath &fix,
                              QString *error)
{
    const std::string path = fix.path.toStdString();
    const std::string to = fix.resolved.toStdString();
    // The command named the script by its path: it runs the file itself now. Else (a relative
    // spelling, `cd /workspace && ./start.sh`) the link is made to work where it leads.
    if (!fix.resolved.isEmpty()) {
        QString unused;
        const QString out = editPodSpecs(yaml, "", &unused, [&](json &spec) {
            bool changed = false;
            for (const char *list : {"containers", "initContainers"})
                if (spec.contains(list) && spec[list].is_array())
                    for (json &c : spec[list])
                        for (const char *key : {"command", "args"})
                            if (c.is_object() && c.contains(key) && c[key].is_array())
                                for (json &word : c[key])
                                    if (word.is_string()) {
                                        std::string w = word.get<std::string>();
                                        if (replaceWord(w, path, to)) {
                                            word = w;
                                            changed = true;
                                        }
                                    }
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
        for (json &c : spec["containers"])
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
