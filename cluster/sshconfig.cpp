// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshconfig.h"

#include "boundedfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace gpudesk {

namespace {

// ssh_config's word splitting: blanks separate, an optional '=' ends the keyword, double quotes
// group, a word starting with '#' starts a comment.
QStringList splitLine(const QString &line)
{
    QStringList words;
    QString cur;
    bool inQuote = false, have = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (inQuote) {
            if (c == u'"')
                inQuote = false;
            else
                cur += c;
            continue;
        }
        if (c == u'"') {
            inQuote = true;
            have = true;
        } else if (c.isSpace() || (c == u'=' && words.isEmpty())) {
            if (have)
                words << cur;
            cur.clear();
            have = false;
        } else if (c == u'#' && !have) {
            break;
        } else {
            cur += c;
            have = true;
        }
    }
    if (have)
        words << cur;
    return words;
}

bool wildcardMatch(QStringView s, QStringView p)
{
    // Iterative * and ? matching, case-insensitive as ssh matches host names.
    qsizetype si = 0, pi = 0, star = -1, mark = 0;
    while (si < s.size()) {
        if (pi < p.size() && (p[pi] == u'?' || p[pi].toLower() == s[si].toLower())) {
            ++si;
            ++pi;
        } else if (pi < p.size() && p[pi] == u'*') {
            star = pi++;
            mark = si;
        } else if (star >= 0) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == u'*')
        ++pi;
    return pi == p.size();
}

// Every keyword OpenSSH 9's ssh accepts (lower case), deprecated and unsupported ones included
// (it only warns about those): any other is "Bad configuration option" and ssh refuses the file.
const QSet<QString> &knownKeywords()
{
    static const QSet<QString> words = [] {
        const char *const list[] = {"host",
                                    "match",
                                    "addkeystoagent",
                                    "addressfamily",
                                    "batchmode",
                                    "bindaddress",
                                    "bindinterface",
                                    "canonicaldomains",
                                    "canonicalizefallbacklocal",
                                    "canonicalizehostname",
                                    "canonicalizemaxdots",
                                    "canonicalizepermittedcnames",
                                    "casignaturealgorithms",
                                    "certificatefile",
                                    "challengeresponseauthentication",
                                    "checkhostip",
                                    "cipher",
                                    "ciphers",
                                    "clearallforwardings",
                                    "compression",
                                    "compressionlevel",
                                    "connectionattempts",
                                    "connecttimeout",
                                    "controlmaster",
                                    "controlpath",
                                    "controlpersist",
                                    "dynamicforward",
                                    "enableescapecommandline",
                                    "enablesshkeysign",
                                    "escapechar",
                                    "exitonforwardfailure",
                                    "fallbacktorsh",
                                    "fingerprinthash",
                                    "forkafterauthentication",
                                    "forwardagent",
                                    "forwardx11",
                                    "forwardx11timeout",
                                    "forwardx11trusted",
                                    "gatewayports",
                                    "globalknownhostsfile",
                                    "gssapiauthentication",
                                    "gssapiclientidentity",
                                    "gssapidelegatecredentials",
                                    "gssapikeyexchange",
                                    "gssapikexalgorithms",
                                    "gssapirenewalforcesrekey",
                                    "gssapiserveridentity",
                                    "gssapitrustdns",
                                    "hashknownhosts",
                                    "hostbasedacceptedalgorithms",
                                    "hostbasedauthentication",
                                    "hostbasedkeytypes",
                                    "hostkeyalgorithms",
                                    "hostkeyalias",
                                    "hostname",
                                    "identitiesonly",
                                    "identityagent",
                                    "identityfile",
                                    "ignoreunknown",
                                    "include",
                                    "ipqos",
                                    "kbdinteractiveauthentication",
                                    "kbdinteractivedevices",
                                    "keepalive",
                                    "kexalgorithms",
                                    "knownhostscommand",
                                    "localcommand",
                                    "localforward",
                                    "loglevel",
                                    "logverbose",
                                    "macs",
                                    "nohostauthenticationforlocalhost",
                                    "numberofpasswordprompts",
                                    "passwordauthentication",
                                    "permitlocalcommand",
                                    "permitremoteopen",
                                    "pkcs11provider",
                                    "port",
                                    "preferredauthentications",
                                    "protocol",
                                    "proxycommand",
                                    "proxyjump",
                                    "proxyusefdpass",
                                    "pubkeyacceptedalgorithms",
                                    "pubkeyacceptedkeytypes",
                                    "pubkeyauthentication",
                                    "rekeylimit",
                                    "remotecommand",
                                    "remoteforward",
                                    "requesttty",
                                    "requiredrsasize",
                                    "revokedhostkeys",
                                    "rhostsrsaauthentication",
                                    "rsaauthentication",
                                    "securitykeyprovider",
                                    "sendenv",
                                    "serveralivecountmax",
                                    "serveraliveinterval",
                                    "sessiontype",
                                    "setenv",
                                    "smartcarddevice",
                                    "stdinnull",
                                    "streamlocalbindmask",
                                    "streamlocalbindunlink",
                                    "stricthostkeychecking",
                                    "syslogfacility",
                                    "tcpkeepalive",
                                    "tunnel",
                                    "tunneldevice",
                                    "updatehostkeys",
                                    "useprivilegedport",
                                    "useroaming",
                                    "usersh",
                                    "user",
                                    "userknownhostsfile",
                                    "verifyhostkeydns",
                                    "visualhostkey",
                                    "xauthlocation"};
        QSet<QString> out;
        for (const char *w : list)
            out.insert(QLatin1String(w));
        return out;
    }();
    return words;
}

// Keywords that change where or how ssh reaches a host, which gpudesk's SSH does not follow: a
// node that needs one is reached differently by gpudesk than by ssh, so each is a warning.
const QSet<QString> &unsupportedConnectKeywords()
{
    static const QSet<QString> words = [] {
        const char *const list[] = {"addressfamily",
                                    "bindaddress",
                                    "bindinterface",
                                    "canonicalizehostname",
                                    "canonicaldomains",
                                    "certificatefile",
                                    "ciphers",
                                    "gssapiauthentication",
                                    "hostkeyalgorithms",
                                    "identityagent",
                                    "kexalgorithms",
                                    "knownhostscommand",
                                    "macs",
                                    "pkcs11provider",
                                    "preferredauthentications",
                                    "pubkeyacceptedalgorithms",
                                    "securitykeyprovider",
                                    "smartcarddevice",
                                    "globalknownhostsfile",
                                    "proxyusefdpass"};
        QSet<QString> out;
        for (const char *w : list)
            out.insert(QLatin1String(w));
        return out;
    }();
    return words;
}

// The text of an option after its keyword (and an optional '='), as ssh keeps it for
// ProxyCommand: the shell reads it, quotes and all.
QString rawArgument(const QString &line)
{
    const QString t = line.trimmed();
    qsizetype i = 0;
    while (i < t.size() && !t.at(i).isSpace() && t.at(i) != u'=')
        ++i;
    while (i < t.size() && (t.at(i).isSpace() || t.at(i) == u'='))
        ++i;
    return t.mid(i);
}

QString expandHome(const QString &path)
{
    if (path == u'~')
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

} // namespace

QString SshConfig::defaultPath()
{
    return QDir::homePath() + QStringLiteral("/.ssh/config");
}

std::optional<SshConfig> SshConfig::load(const QString &path, QString *error)
{
    if (!QFile::exists(path))
        return SshConfig();
    QString why;
    const auto text = readBoundedFile(path, filelimit::SshConfig, &why);
    if (!text) {
        *error = tr("Cannot read the SSH config %1: %2").arg(path, why);
        return std::nullopt;
    }
    SshConfig c = parse(*text, path);
    if (!c.m_errors.isEmpty()) {
        *error = tr("%1 (ssh refuses this file too).").arg(c.m_errors.first());
        return std::nullopt;
    }
    return c;
}

SshConfig SshConfig::parse(const QByteArray &text, const QString &path)
{
    SshConfig c;
    c.m_path = path;
    c.m_blocks.append(Block{});
    c.parseInto(text, path, 0);
    return c;
}

void SshConfig::parseInto(const QByteArray &text, const QString &path, int depth)
{
    bool skipping = false; // inside a Match block
    int lineNo = 0;
    for (const QByteArray &raw : text.split('\n')) {
        ++lineNo;
        const QStringList words = splitLine(QString::fromUtf8(raw));
        if (words.isEmpty())
            continue;
        const QString key = words.first().toLower();
        const QStringList args = words.mid(1);
        const QString where = tr("%1 line %2").arg(path).arg(lineNo);
        if (!knownKeywords().contains(key)) {
            const bool ignored =
                std::any_of(m_ignoreUnknown.cbegin(), m_ignoreUnknown.cend(),
                            [&](const QString &p) { return wildcardMatch(key, p); });
            if (!ignored)
                m_errors << tr("%1: Bad configuration option: %2").arg(where, words.first());
            continue;
        }
        if (args.isEmpty() && key != QLatin1String("match")) {
            m_errors << tr("%1: Missing argument to %2").arg(where, words.first());
            continue;
        }
        if (key == QLatin1String("port")) {
            bool ok = false;
            const int port = args.first().toInt(&ok);
            if (!ok || port <= 0 || port > 65535) {
                m_errors << tr("%1: Bad port \"%2\"").arg(where, args.first());
                continue;
            }
        }
        if (key == QLatin1String("ignoreunknown")) {
            for (const QString &a : args)
                for (const QString &p : a.split(u','))
                    m_ignoreUnknown << p.toLower();
        }
        if (unsupportedConnectKeywords().contains(key) && !skipping) {
            m_warnings << tr("%1: %2 is not followed by gpudesk; it reaches the host as if it "
                             "were not set.")
                              .arg(where, words.first());
        }
        if (key == QLatin1String("host")) {
            skipping = false;
            m_blocks.append(Block{args, {}});
        } else if (key == QLatin1String("match")) {
            skipping = true;
            m_warnings
                << tr("%1 line %2: Match blocks are not supported; skipped.").arg(path).arg(lineNo);
        } else if (skipping) {
            continue;
        } else if (key == QLatin1String("include")) {
            if (depth >= 16) {
                m_warnings << tr("%1 line %2: Include nested too deeply.").arg(path).arg(lineNo);
                continue;
            }
            for (const QString &arg : args) {
                QString pattern = expandHome(arg);
                if (QFileInfo(pattern).isRelative())
                    pattern = QDir::homePath() + QStringLiteral("/.ssh/") + pattern;
                const QFileInfo fi(pattern);
                const QStringList names =
                    QDir(fi.path()).entryList({fi.fileName()}, QDir::Files, QDir::Name);
                for (const QString &name : names) {
                    const QString file = fi.path() + u'/' + name;
                    if (++m_includedFiles > MaxIncludedFiles) {
                        if (m_includedFiles == MaxIncludedFiles + 1)
                            m_warnings << tr("%1 line %2: more than %3 files Included (does a "
                                             "file Include itself?); the rest are skipped.")
                                              .arg(path)
                                              .arg(lineNo)
                                              .arg(MaxIncludedFiles);
                        break;
                    }
                    QString why;
                    if (const auto text = readBoundedFile(file, filelimit::SshConfig, &why))
                        parseInto(*text, file, depth + 1);
                    else
                        m_warnings << tr("%1 line %2: cannot read the Included %3: %4")
                                          .arg(path)
                                          .arg(lineNo)
                                          .arg(file, why);
                }
            }
        } else if (!args.isEmpty()) {
            m_blocks.last().options.append({key, args});
            m_blocks.last().raw.append(rawArgument(QString::fromUtf8(raw)));
        }
    }
}

bool SshConfig::matchesPattern(const QString &host, const QString &pattern)
{
    return wildcardMatch(host, pattern);
}

bool SshConfig::blockMatches(const Block &b, const QString &host)
{
    if (b.patterns.isEmpty())
        return true;
    bool matched = false;
    for (const QString &p : b.patterns) {
        if (p.startsWith(u'!')) {
            if (wildcardMatch(host, QStringView(p).mid(1)))
                return false; // a negated match excludes the block whatever else matches
        } else if (wildcardMatch(host, p)) {
            matched = true;
        }
    }
    return matched;
}

SshHostConfig SshConfig::resolve(const QString &host, const QString &localUser) const
{
    SshHostConfig r;
    bool haveHostName = false, haveUser = false, havePort = false, haveOnly = false,
         haveJump = false, haveKnown = false, haveTimeout = false, haveAlias = false;
    QString rawProxyCommand;
    QStringList rawIdentities, rawKnown;
    for (const Block &b : m_blocks) {
        if (!blockMatches(b, host))
            continue;
        if (!(b.patterns.isEmpty() || b.patterns == QStringList{QStringLiteral("*")}))
            r.namedByPattern = true;
        for (qsizetype o = 0; o < b.options.size(); ++o) {
            const auto &[key, args] = b.options.at(o);
            const QString &v = args.first();
            if (key == QLatin1String("hostname") && !haveHostName) {
                r.hostName = v;
                haveHostName = true;
            } else if (key == QLatin1String("user") && !haveUser) {
                r.user = v;
                haveUser = true;
            } else if (key == QLatin1String("port") && !havePort) {
                bool ok = false;
                const int p = v.toInt(&ok);
                if (ok && p > 0 && p < 65536)
                    r.port = p;
                havePort = true;
            } else if (key == QLatin1String("identityfile")) {
                rawIdentities << v;
            } else if (key == QLatin1String("identitiesonly") && !haveOnly) {
                r.identitiesOnly = v.compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
                haveOnly = true;
            } else if (key == QLatin1String("proxyjump") && !haveJump) {
                r.proxyJump =
                    v.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0 ? QString() : v;
                haveJump = true; // competes with ProxyCommand: the first one wins
            } else if (key == QLatin1String("proxycommand") && !haveJump) {
                rawProxyCommand = b.raw.at(o);
                if (rawProxyCommand.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
                    rawProxyCommand.clear();
                haveJump = true;
            } else if (key == QLatin1String("userknownhostsfile") && !haveKnown) {
                rawKnown = args;
                haveKnown = true;
            } else if (key == QLatin1String("hostkeyalias") && !haveAlias) {
                r.hostKeyAlias = v;
                haveAlias = true;
            } else if (key == QLatin1String("connecttimeout") && !haveTimeout) {
                r.connectTimeoutSeconds = qMax(0, v.toInt());
                haveTimeout = true;
            }
        }
    }
    // HostName may itself hold %h (e.g. "%h.cluster.local").
    r.hostName = haveHostName ? QString(r.hostName).replace(QLatin1String("%h"), host) : host;
    const QString user = r.user.isEmpty() ? localUser : r.user;
    const int port = r.port > 0 ? r.port : 22;
    auto expand = [&](QString s) {
        QString out;
        for (int i = 0; i < s.size(); ++i) {
            if (s.at(i) != u'%' || i + 1 >= s.size()) {
                out += s.at(i);
                continue;
            }
            const QChar t = s.at(++i);
            if (t == u'h')
                out += r.hostName;
            else if (t == u'n')
                out += host;
            else if (t == u'p')
                out += QString::number(port);
            else if (t == u'r')
                out += user;
            else if (t == u'u')
                out += localUser;
            else if (t == u'd')
                out += QDir::homePath();
            else if (t == u'%')
                out += u'%';
            else
                out += u'%' + t; // unknown token: kept as written
        }
        return expandHome(out);
    };
    for (const QString &f : std::as_const(rawIdentities))
        r.identityFiles << expand(f);
    if (!rawProxyCommand.isEmpty()) {
        // The tokens reach a shell: as OpenSSH 9.6, a host or user name that a shell would act
        // on is refused rather than substituted (a node is named by the cluster, not the user).
        static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9._:@\\[\\]-]*$"));
        for (const QString &value : {r.hostName, host, user}) {
            if (!safe.match(value).hasMatch()) {
                r.proxyCommandError =
                    tr("ProxyCommand for %1: \"%2\" would reach the shell unquoted; refused.")
                        .arg(host, value);
                break;
            }
        }
        if (r.proxyCommandError.isEmpty()) {
            QString out;
            for (qsizetype i = 0; i < rawProxyCommand.size(); ++i) {
                const QChar c = rawProxyCommand.at(i);
                if (c != u'%' || i + 1 >= rawProxyCommand.size()) {
                    out += c;
                    continue;
                }
                const QChar t = rawProxyCommand.at(++i);
                if (t == u'h')
                    out += r.hostName;
                else if (t == u'n')
                    out += host;
                else if (t == u'p')
                    out += QString::number(port);
                else if (t == u'r')
                    out += user;
                else if (t == u'%')
                    out += u'%';
                else
                    r.proxyCommandError =
                        tr("ProxyCommand for %1: unknown token %%2.").arg(host).arg(t);
            }
            r.proxyCommand = out;
        }
    }
    for (const QString &f : std::as_const(rawKnown))
        if (f.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
            r.userKnownHostsFiles << expand(f);
    return r;
}

} // namespace gpudesk
