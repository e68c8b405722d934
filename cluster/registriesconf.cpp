// SPDX-License-Identifier: GPL-3.0-or-later
#include "registriesconf.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QVariant>

namespace gpudesk {

namespace {

constexpr qint64 kMaxFileBytes = 1 << 20;

// The part of TOML that registries.conf uses: tables and arrays of tables, bare and quoted keys,
// basic and literal strings, booleans, integers, and arrays of those (over several lines). What
// else TOML has (inline tables, dates, multi-line strings) is refused with its line: gpudesk
// must not guess where a registry is.
class TomlReader
{
public:
    explicit TomlReader(const QString &text) : m_s(text) {}

    QString error() const { return m_error; }
    int line() const { return m_line; }

    // Calls `table(name, isArray, line)` at each header, `key(name, value, line)` at each pair.
    template <typename Table, typename Key> bool read(Table table, Key key)
    {
        while (skipBlankAndComments()) {
            const int at = m_line;
            if (peek() == u'[') {
                const bool array = m_s.mid(m_i, 2) == QLatin1String("[[");
                m_i += array ? 2 : 1;
                QString name;
                if (!dottedKey(&name) ||
                    !expect(array ? QStringLiteral("]]") : QStringLiteral("]")))
                    return false;
                table(name, array, at);
            } else {
                QString name;
                if (!dottedKey(&name) || !expect(QStringLiteral("=")))
                    return false;
                QVariant v;
                if (!value(&v))
                    return false;
                key(name, v, at);
            }
            if (!endOfLine())
                return false;
        }
        return m_error.isEmpty();
    }

private:
    QChar peek() const { return m_i < m_s.size() ? m_s.at(m_i) : QChar(); }

    void skipSpaces()
    {
        while (m_i < m_s.size() && (m_s.at(m_i) == u' ' || m_s.at(m_i) == u'\t'))
            ++m_i;
    }

    void skipComment()
    {
        if (peek() == u'#')
            while (m_i < m_s.size() && m_s.at(m_i) != u'\n')
                ++m_i;
    }

    // Spaces, newlines and comments; false at the end of the text.
    bool skipBlankAndComments()
    {
        for (;;) {
            skipSpaces();
            skipComment();
            if (peek() == u'\r')
                ++m_i;
            if (peek() != u'\n')
                return m_i < m_s.size();
            ++m_i;
            ++m_line;
        }
    }

    bool fail(const QString &what)
    {
        if (m_error.isEmpty())
            m_error = what;
        return false;
    }

    bool expect(const QString &token)
    {
        skipSpaces();
        if (m_s.mid(m_i, token.size()) != token)
            return fail(QCoreApplication::translate("gpudesk", "expected \"%1\"").arg(token));
        m_i += token.size();
        return true;
    }

    bool endOfLine()
    {
        skipSpaces();
        skipComment();
        if (peek() == u'\r')
            ++m_i;
        if (m_i < m_s.size() && peek() != u'\n')
            return fail(QCoreApplication::translate("gpudesk", "unexpected \"%1\" after the value")
                            .arg(m_s.mid(m_i, 20).section(u'\n', 0, 0)));
        return true;
    }

    bool dottedKey(QString *out)
    {
        QStringList parts;
        for (;;) {
            skipSpaces();
            QString part;
            if (peek() == u'"' || peek() == u'\'') {
                QVariant v;
                if (!string(&v))
                    return false;
                part = v.toString();
            } else {
                while (m_i < m_s.size() && (m_s.at(m_i).isLetterOrNumber() || m_s.at(m_i) == u'-' ||
                                            m_s.at(m_i) == u'_'))
                    part += m_s.at(m_i++);
                if (part.isEmpty())
                    return fail(QCoreApplication::translate("gpudesk", "expected a key"));
            }
            parts << part;
            skipSpaces();
            if (peek() != u'.')
                break;
            ++m_i;
        }
        *out = parts.join(u'.');
        return true;
    }

    bool string(QVariant *out)
    {
        const QChar quote = m_s.at(m_i++);
        if (m_s.mid(m_i, 2) == QString(2, quote))
            return fail(QCoreApplication::translate("gpudesk", "multi-line strings are not read"));
        QString s;
        while (m_i < m_s.size() && m_s.at(m_i) != quote && m_s.at(m_i) != u'\n') {
            QChar c = m_s.at(m_i++);
            if (c == u'\\' && quote == u'"' && m_i < m_s.size()) {
                const QChar e = m_s.at(m_i++);
                static const QString from = QStringLiteral("\"\\btnfr"),
                                     to = QStringLiteral("\"\\\b\t\n\f\r");
                const int k = int(from.indexOf(e));
                if (k < 0)
                    return fail(
                        QCoreApplication::translate("gpudesk", "the escape \\%1 is not read")
                            .arg(e));
                c = to.at(k);
            }
            s += c;
        }
        if (peek() != quote)
            return fail(QCoreApplication::translate("gpudesk", "a string is not closed"));
        ++m_i;
        *out = s;
        return true;
    }

    bool value(QVariant *out)
    {
        skipSpaces();
        const QChar c = peek();
        if (c == u'"' || c == u'\'')
            return string(out);
        if (c == u'[') {
            ++m_i;
            QVariantList list;
            for (;;) {
                if (!skipBlankAndComments())
                    return fail(QCoreApplication::translate("gpudesk", "an array is not closed"));
                if (peek() == u']') {
                    ++m_i;
                    break;
                }
                QVariant item;
                if (!value(&item))
                    return false;
                list << item;
                if (!skipBlankAndComments())
                    return fail(QCoreApplication::translate("gpudesk", "an array is not closed"));
                if (peek() == u',')
                    ++m_i;
                else if (peek() != u']')
                    return fail(QCoreApplication::translate("gpudesk", "expected \",\" or \"]\""));
            }
            *out = list;
            return true;
        }
        QString word;
        while (m_i < m_s.size() && (m_s.at(m_i).isLetterOrNumber() || m_s.at(m_i) == u'-' ||
                                    m_s.at(m_i) == u'+' || m_s.at(m_i) == u'_'))
            word += m_s.at(m_i++);
        bool isInt = false;
        const qlonglong n = word.toLongLong(&isInt);
        if (word == QLatin1String("true") || word == QLatin1String("false"))
            *out = word == QLatin1String("true");
        else if (isInt)
            *out = n;
        else
            return fail(word.isEmpty()
                            ? QCoreApplication::translate("gpudesk", "expected a value")
                            : QCoreApplication::translate("gpudesk", "\"%1\" is not a value "
                                                                     "gpudesk reads")
                                  .arg(word));
        return true;
    }

    const QString m_s;
    qsizetype m_i = 0;
    int m_line = 1;
    QString m_error;
};

} // namespace

QString RegistriesConf::path()
{
    const QString env = qEnvironmentVariable("CONTAINERS_REGISTRIES_CONF");
    if (!env.isEmpty())
        return env;
    QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (config.isEmpty())
        config = QDir::homePath() + QStringLiteral("/.config");
    const QStringList candidates{config + QStringLiteral("/containers/registries.conf"),
                                 QStringLiteral("/etc/containers/registries.conf")};
    for (const QString &p : candidates)
        if (QFile::exists(p))
            return p;
    return {};
}

RegistriesConf RegistriesConf::load()
{
    const QString p = path();
    RegistriesConf out;
    out.m_file = p;
    if (p.isEmpty())
        return out;
    QFile f(p);
    if (!f.open(QIODevice::ReadOnly)) {
        out.m_error =
            QCoreApplication::translate("gpudesk", "Cannot read %1: %2").arg(p, f.errorString());
        return out;
    }
    if (f.size() > kMaxFileBytes) {
        out.m_error = QCoreApplication::translate(
                          "gpudesk", "%1 is larger than 1 MiB; gpudesk did not read it.")
                          .arg(p);
        return out;
    }
    return parse(f.readAll(), p);
}

RegistriesConf RegistriesConf::parse(const QByteArray &text, const QString &name)
{
    RegistriesConf out;
    out.m_file = name;
    TomlReader reader(QString::fromUtf8(text));
    // Which table the keys belong to: a registry, one of its mirrors, a version 1 list, or
    // something gpudesk does not need.
    enum class In
    {
        Top,
        Registry,
        Mirror,
        InsecureList,
        BlockList,
        Other
    } in = In::Top;
    QList<Entry> entries;
    QStringList insecureV1, blockedV1;
    const bool ok = reader.read(
        [&](const QString &table, bool array, int line) {
            if (array && table == QLatin1String("registry")) {
                entries.append(Entry{});
                entries.last().line = line;
                in = In::Registry;
            } else if (array && table == QLatin1String("registry.mirror")) {
                in = In::Mirror;
            } else if (!array && table == QLatin1String("registries.insecure")) {
                in = In::InsecureList;
            } else if (!array && table == QLatin1String("registries.block")) {
                in = In::BlockList;
            } else {
                in = In::Other;
            }
        },
        [&](const QString &key, const QVariant &v, int) {
            if (in == In::Registry) {
                Entry &e = entries.last();
                if (key == QLatin1String("prefix"))
                    e.prefix = v.toString();
                else if (key == QLatin1String("location"))
                    e.location = v.toString();
                else if (key == QLatin1String("insecure"))
                    e.insecure = v.toBool();
                else if (key == QLatin1String("blocked"))
                    e.blocked = v.toBool();
            } else if ((in == In::InsecureList || in == In::BlockList) &&
                       key == QLatin1String("registries")) {
                (in == In::InsecureList ? insecureV1 : blockedV1) += v.toStringList();
            }
        });
    if (!ok) {
        out.m_error = QCoreApplication::translate("gpudesk", "%1, line %2: %3. gpudesk used none "
                                                             "of its registries.")
                          .arg(name)
                          .arg(reader.line())
                          .arg(reader.error());
        return out;
    }
    for (Entry &e : entries) {
        if (e.prefix.isEmpty())
            e.prefix = e.location;
        if (e.location.isEmpty())
            e.location = e.prefix.startsWith(QLatin1String("*.")) ? QString() : e.prefix;
        if (!e.prefix.isEmpty())
            out.m_entries << e;
    }
    for (const QString &h : std::as_const(insecureV1))
        out.m_entries << Entry{h, h, true, false, 0};
    for (const QString &h : std::as_const(blockedV1))
        out.m_entries << Entry{h, h, false, true, 0};
    return out;
}

const RegistriesConf::Entry *RegistriesConf::forHost(const QString &host) const
{
    const Entry *best = nullptr;
    for (const Entry &e : m_entries) {
        if (e.prefix == host)
            return &e;
        // "*.example.com" covers a.example.com and a.b.example.com, not example.com.
        if (e.prefix.startsWith(QLatin1String("*.")) &&
            host.endsWith(QStringView(e.prefix).mid(1)) &&
            (!best || e.prefix.size() > best->prefix.size()))
            best = &e;
    }
    return best;
}

} // namespace gpudesk
