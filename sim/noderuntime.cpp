// SPDX-License-Identifier: GPL-3.0-or-later
#include "noderuntime.h"

#include "nodemachine.h"
#include "registrypush.h"
#include "simclock.h"
#include "simhelpers.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace sim {

using nlohmann::json;

namespace {

std::string sha256(const QByteArray &data)
{
    return "sha256:" +
           QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex().toStdString();
}

// One regular file in a POSIX ustar archive, as an image layer holds the files a commit adds.
QByteArray tarWith(const std::string &path, const std::string &content, qint64 mtimeSecs)
{
    QByteArray header(512, '\0');
    auto put = [&](int offset, const std::string &text) {
        for (size_t i = 0; i < text.size(); ++i)
            header[offset + int(i)] = text[i];
    };
    auto octal = [](qint64 value, int width) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%0*llo", width - 1, static_cast<unsigned long long>(value));
        return std::string(buf);
    };
    put(0, path);
    put(100, octal(0644, 8));
    put(108, octal(0, 8));
    put(116, octal(0, 8));
    put(124, octal(qint64(content.size()), 12));
    put(136, octal(mtimeSecs, 12));
    put(148, std::string(8, ' '));
    header[156] = '0';
    put(257, std::string("ustar\0", 6));
    put(263, "00");
    unsigned sum = 0;
    for (char c : header)
        sum += unsigned(static_cast<unsigned char>(c));
    put(148, octal(sum, 7));
    header[155] = ' ';
    QByteArray out = header + QByteArray::fromStdString(content);
    out += QByteArray((512 - content.size() % 512) % 512, '\0');
    out += QByteArray(1024, '\0');
    return out;
}

// "host:5000/alice/dev:day1" → registry, repository, tag ("latest" when none is given).
struct Reference
{
    std::string registry, repository, tag;
    std::string full() const { return registry + "/" + repository + ":" + tag; }
};

bool parseReference(const std::string &ref, Reference *out)
{
    const size_t slash = ref.find('/');
    if (slash == std::string::npos || ref.find('@') != std::string::npos)
        return false;
    const std::string first = ref.substr(0, slash);
    if (first.find('.') == std::string::npos && first.find(':') == std::string::npos &&
        first != "localhost")
        return false; // Docker Hub is not where a node pushes
    out->registry = first;
    std::string rest = ref.substr(slash + 1);
    const size_t colon = rest.rfind(':');
    if (colon != std::string::npos && rest.find('/', colon) == std::string::npos) {
        out->tag = rest.substr(colon + 1);
        rest = rest.substr(0, colon);
    } else {
        out->tag = "latest";
    }
    out->repository = rest;
    return !rest.empty() && !out->tag.empty();
}

CommandOutput fatal(const std::string &message)
{
    return {"", "level=fatal msg=\"" + message + "\"\n", 1};
}

} // namespace

std::set<std::string> NodeRuntime::registriesIn(const std::string &certsDir)
{
    std::set<std::string> out;
    if (certsDir.empty())
        return out;
    const QDir dir(QString::fromStdString(certsDir));
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        out.insert(name.toStdString());
    return out;
}

CommandOutput NodeRuntime::mkdir(const std::string &node, const std::vector<std::string> &argv)
{
    std::vector<std::string> paths;
    for (size_t i = 1; i < argv.size(); ++i) {
        if (argv[i] == "-m" && i + 1 < argv.size())
            ++i;
        else if (argv[i] == "-p" || argv[i].rfind("-m", 0) == 0)
            continue;
        else
            paths.push_back(argv[i]);
    }
    if (paths.empty())
        return {"", "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", 1};
    std::lock_guard lock(m_mutex);
    CommandOutput r;
    for (const std::string &p : paths) {
        // Only /tmp is writable on these nodes for a client's own directories.
        if (p.rfind("/tmp/", 0) != 0 || p.find('/', 5) != std::string::npos) {
            r.err += "mkdir: cannot create directory '" + p + "': Permission denied\n";
            r.status = 1;
        } else if (!m_dirs[node].insert(p).second) {
            r.err += "mkdir: cannot create directory '" + p + "': File exists\n";
            r.status = 1;
        }
    }
    return r;
}

CommandOutput NodeRuntime::rm(const std::string &node, const std::vector<std::string> &argv)
{
    std::lock_guard lock(m_mutex);
    for (size_t i = 1; i < argv.size(); ++i) {
        if (argv[i][0] == '-')
            continue;
        m_dirs[node].erase(argv[i]);
        m_logins[node].erase(argv[i]);
    }
    return {};
}

CommandOutput NodeRuntime::nerdctl(const std::string &node, const std::vector<std::string> &argv,
                                   const std::map<std::string, std::string> &env,
                                   const std::string &input, qint64 nowMs)
{
    std::string ns = "default";
    size_t i = 1;
    for (; i < argv.size() && argv[i][0] == '-'; ++i) {
        if ((argv[i] == "-n" || argv[i] == "--namespace") && i + 1 < argv.size())
            ns = argv[++i];
        else if (argv[i].rfind("--namespace=", 0) == 0)
            ns = argv[i].substr(12);
        else
            return fatal("unknown flag: " + argv[i]);
    }
    if (i >= argv.size())
        return {"nerdctl is a command line interface for containerd\n\nUsage: nerdctl [flags]\n",
                "", 0};
    const std::string sub = argv[i];
    const std::vector<std::string> args(argv.begin() + long(i) + 1, argv.end());
    const auto config = env.find("DOCKER_CONFIG");
    const std::string configDir = config == env.end() ? "/root/.docker" : config->second;
    if (sub == "ps")
        return ps(node, args, ns);
    if (sub == "commit")
        return commit(node, args, ns, nowMs);
    if (sub == "login")
        return login(node, args, configDir, input);
    if (sub == "push")
        return push(node, args, configDir);
    if (sub == "version")
        return {"Client:\n Version:\tv1.7.6\n OS/Arch:\tlinux/amd64\n\nServer:\n containerd:\n  "
                "Version:\tv1.7.12\n",
                "", 0};
    return fatal("unknown command \"" + sub + "\" for \"nerdctl\"");
}

CommandOutput NodeRuntime::ps(const std::string &node, const std::vector<std::string> &args,
                              const std::string &ns)
{
    bool quiet = false;
    std::vector<std::pair<std::string, std::string>> labels;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "-q" || args[i] == "--quiet") {
            quiet = true;
        } else if ((args[i] == "--filter" || args[i] == "-f") && i + 1 < args.size()) {
            const std::string f = args[++i];
            if (f.rfind("label=", 0) != 0)
                return fatal("invalid filter '" + f + "'");
            const std::string kv = f.substr(6);
            const size_t eq = kv.find('=');
            labels.emplace_back(kv.substr(0, eq),
                                eq == std::string::npos ? std::string() : kv.substr(eq + 1));
        } else if (args[i] != "--no-trunc") {
            return fatal("unknown flag: " + args[i]);
        }
    }
    const auto machine = m_machines->snapshot(node);
    std::string out =
        quiet ? "" : "CONTAINER ID    IMAGE    COMMAND    CREATED    STATUS    NAMES\n";
    if (!machine || ns != "k8s.io")
        return {out, "", 0}; // Kubernetes' containers live in namespace k8s.io only
    for (const auto &[uid, pod] : machine->pods) {
        if (pod.container.empty())
            continue;
        const std::map<std::string, std::string> have{
            {"io.kubernetes.pod.uid", uid},
            {"io.kubernetes.pod.name", pod.name},
            {"io.kubernetes.pod.namespace", pod.ns},
            {"io.kubernetes.container.name", pod.container}};
        bool match = true;
        for (const auto &[k, v] : labels) {
            const auto it = have.find(k);
            match &= it != have.end() && (v.empty() || it->second == v);
        }
        if (!match)
            continue;
        const std::string id = containerId(uid, pod.container, pod.restartCount).substr(0, 12);
        out += quiet ? id + "\n"
                     : id + "    " + pod.image + "    \"/bin/sh -c\"    Up    k8s://" + pod.ns +
                           "/" + pod.name + "/" + pod.container + "\n";
    }
    return {out, "", 0};
}

CommandOutput NodeRuntime::commit(const std::string &node, const std::vector<std::string> &args,
                                  const std::string &ns, qint64 nowMs)
{
    std::vector<std::string> words;
    for (const std::string &a : args)
        if (a.rfind("--pause", 0) != 0)
            words.push_back(a);
    if (words.size() != 2)
        return fatal("\"nerdctl commit\" requires exactly 2 arguments");
    Reference ref;
    if (!parseReference(words[1], &ref))
        return fatal("invalid reference format: " + words[1]);
    const auto machine = m_machines->snapshot(node);
    if (machine && ns == "k8s.io") {
        for (const auto &[uid, pod] : machine->pods) {
            const std::string id = containerId(uid, pod.container, pod.restartCount);
            if (pod.container.empty() || id.rfind(words[0], 0) != 0 || words[0].size() < 4)
                continue;
            Image img{pod.ns, pod.name, pod.container, pod.image, nowMs, {}, {}};
            const std::string note = "Committed from " + pod.ns + "/" + pod.name + " (container " +
                                     pod.container + ", image " + pod.image + ") at " +
                                     SimClock::rfc3339(nowMs) + "\n";
            img.layer = tarWith("root/.gpudesk-commit", note, nowMs / 1000);
            const json config{
                {"architecture", "amd64"},
                {"os", "linux"},
                {"created", SimClock::rfc3339(nowMs)},
                {"config",
                 {{"Env",
                   {"PATH=/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"}},
                  {"Labels", {{"io.gpudesk.committed-from", pod.ns + "/" + pod.name}}}}},
                {"rootfs", {{"type", "layers"}, {"diff_ids", {sha256(img.layer)}}}},
                {"history",
                 {{{"created", SimClock::rfc3339(nowMs)},
                   {"created_by",
                    "nerdctl commit " + id.substr(0, 12) + " (from " + pod.image + ")"}}}}};
            img.config = QByteArray::fromStdString(config.dump());
            const std::string digest = sha256(img.config);
            std::lock_guard lock(m_mutex);
            m_images[node][ref.full()] = img;
            return {digest + "\n", "", 0};
        }
    }
    return fatal("1 errors:\nno such container " + words[0]);
}

CommandOutput NodeRuntime::login(const std::string &node, const std::vector<std::string> &args,
                                 const std::string &configDir, const std::string &input)
{
    std::string user, host;
    bool fromStdin = false;
    for (size_t i = 0; i < args.size(); ++i) {
        if ((args[i] == "-u" || args[i] == "--username") && i + 1 < args.size())
            user = args[++i];
        else if (args[i] == "--password-stdin")
            fromStdin = true;
        else if (args[i][0] == '-')
            return fatal("unknown flag: " + args[i]);
        else
            host = args[i];
    }
    if (!fromStdin || user.empty() || host.empty())
        return fatal("this simulated node logs in only with --username and --password-stdin");
    std::string password = input;
    while (!password.empty() && (password.back() == '\n' || password.back() == '\r'))
        password.pop_back();
    {
        std::lock_guard lock(m_mutex);
        if (configDir != "/root/.docker" && !m_dirs[node].count(configDir))
            return fatal("open " + configDir + "/config.json: no such file or directory");
    }
    if (!registriesIn(m_certsDir).count(host))
        return fatal("failed to call tryLoginWithRegHost: dial tcp: lookup " + host +
                     ": no such host");
    const std::string refused =
        RegistryPush::checkLogin({host, m_certsDir + "/" + host + "/ca.crt", user, password});
    if (!refused.empty())
        return fatal(refused);
    std::lock_guard lock(m_mutex);
    m_logins[node][configDir][host] = user + ":" + password;
    return {"Login Succeeded\n",
            "WARNING: Your password will be stored unencrypted in " + configDir +
                "/config.json.\nConfigure a credential helper to remove this warning. See\n"
                "https://docs.docker.com/engine/reference/commandline/login/#credentials-store\n",
            0};
}

CommandOutput NodeRuntime::push(const std::string &node, const std::vector<std::string> &args,
                                const std::string &configDir)
{
    if (args.size() != 1)
        return fatal("\"nerdctl push\" requires exactly 1 argument");
    Reference ref;
    if (!parseReference(args[0], &ref))
        return fatal("invalid reference format: " + args[0]);
    Image img;
    std::string login;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_images[node].find(ref.full());
        if (it == m_images[node].end())
            return fatal("failed to resolve reference \"" + ref.full() + "\": not found");
        img = it->second;
        login = m_logins[node][configDir][ref.registry];
    }
    if (!registriesIn(m_certsDir).count(ref.registry))
        return fatal("failed to do request: Head \"https://" + ref.registry +
                     "/v2/\": dial tcp: lookup " + ref.registry + ": no such host");
    const size_t colon = login.find(':');
    const RegistryTarget target{ref.registry, m_certsDir + "/" + ref.registry + "/ca.crt",
                                colon == std::string::npos ? "" : login.substr(0, colon),
                                colon == std::string::npos ? "" : login.substr(colon + 1)};
    const json manifest{{"schemaVersion", 2},
                        {"mediaType", "application/vnd.oci.image.manifest.v1+json"},
                        {"config",
                         {{"mediaType", "application/vnd.oci.image.config.v1+json"},
                          {"digest", sha256(img.config)},
                          {"size", img.config.size()}}},
                        {"layers",
                         {{{"mediaType", "application/vnd.oci.image.layer.v1.tar"},
                           {"digest", sha256(img.layer)},
                           {"size", img.layer.size()}}}}};
    const QByteArray body = QByteArray::fromStdString(manifest.dump());
    CommandOutput r;
    r.err = "INFO[0000] pushing as a reduced-platform image (application/vnd.oci.image.manifest."
            "v1+json, " +
            sha256(body) + ")\n";
    const std::string failed =
        RegistryPush::push(target, ref.repository, ref.tag,
                           {{sha256(img.layer), img.layer}, {sha256(img.config), img.config}}, body,
                           "application/vnd.oci.image.manifest.v1+json",
                           [&](const std::string &line) { r.out += line + "\n"; });
    if (!failed.empty()) {
        r.err += fatal(failed).err;
        r.status = 1;
        return r;
    }
    r.out +=
        "elapsed: 0.1 s total: " + std::to_string((img.layer.size() + img.config.size()) / 1024) +
        " KiB\n";
    return r;
}

} // namespace sim
