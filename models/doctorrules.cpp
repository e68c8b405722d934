// SPDX-License-Identifier: GPL-3.0-or-later
#include "doctorrules.h"

#include "launchscripts.h"
#include "specfixes.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace gpudesk {

namespace {

constexpr qint64 kMaxRulesBytes = 1 << 20;
constexpr int kMaxPatternLength = 400;

// "title": "…", "title.zh_CN": "…" → {"": …, "zh_CN": …}
QHash<QString, QString> texts(const QJsonObject &o, const QString &key)
{
    QHash<QString, QString> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == key)
            out.insert(QString(), it.value().toString());
        else if (it.key().startsWith(key + u'.'))
            out.insert(it.key().mid(key.size() + 1), it.value().toString());
    }
    return out;
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    if (v.isString())
        out << v.toString();
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

QList<int> numbers(const QJsonValue &v)
{
    QList<int> out;
    if (v.isDouble())
        out << v.toInt();
    for (const QJsonValue &e : v.toArray())
        out << e.toInt();
    return out;
}

} // namespace

QString DoctorRules::refusal(const QString &pattern)
{
    if (pattern.size() > kMaxPatternLength)
        return tr("longer than %1 characters").arg(kMaxPatternLength);
    // A group with a quantifier inside that is itself repeated: catastrophic backtracking.
    static const QRegularExpression nested(QStringLiteral(
        R"(\((?:[^()\\]|\\.)*(?:[*+]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)\s*(?:[*+]|\{))"));
    if (nested.match(pattern).hasMatch())
        return tr("a repeated group with a repeat inside (such as (a+)+) can take for ever on a "
                  "long line");
    static const QRegularExpression backref(QStringLiteral(R"(\\[1-9]|\\k<|\\g\{?\d)"));
    if (backref.match(pattern).hasMatch())
        return tr("back references are not allowed");
    static const QRegularExpression wildcard(QStringLiteral(R"(\.[*+])"));
    if (pattern.count(wildcard) > 2)
        return tr("more than two unbounded wildcards (.* or .+)");
    return {};
}

DoctorRules DoctorRules::parse(const QByteArray &json, const QString &name, QStringList *errors)
{
    DoctorRules out;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        *errors << tr("%1: not a rules file (%2 at byte %3); none of its rules is used.")
                       .arg(name, error.errorString())
                       .arg(error.offset);
        return out;
    }
    // "classes": {"shared-memory": {"title": "…", "title.zh_CN": "…"}, …}
    const QJsonObject classes = doc.object().value(QLatin1String("classes")).toObject();
    for (auto it = classes.begin(); it != classes.end(); ++it) {
        const QHash<QString, QString> title = texts(it.value().toObject(), QStringLiteral("title"));
        if (title.value(QString()).isEmpty()) {
            *errors << tr("%1, class %2: has no title; its rules' own titles are shown for it.")
                           .arg(name, it.key());
            continue;
        }
        out.m_classTitles.insert(it.key(), title);
    }
    const QJsonArray rules = doc.object().value(QLatin1String("rules")).toArray();
    for (int i = 0; i < rules.size(); ++i) {
        const QJsonObject o = rules.at(i).toObject();
        Rule r;
        r.id = o.value(QLatin1String("id")).toString();
        r.cls = o.value(QLatin1String("class")).toString();
        const QString where =
            tr("%1, rule %2").arg(name, r.id.isEmpty() ? QString::number(i + 1) : r.id);
        if (r.id.isEmpty() || r.cls.isEmpty()) {
            *errors << tr("%1: a rule needs an id and a class; left out.").arg(where);
            continue;
        }
        bool ok = true;
        // Compiled once here; a pattern that is invalid or could run away leaves its rule out.
        const auto regex = [&](const QString &pattern) -> std::optional<QRegularExpression> {
            if (const QString why = refusal(pattern); !why.isEmpty()) {
                *errors << tr("%1: the pattern \"%2\" is refused: %3; the rule is left out.")
                               .arg(where, pattern.left(80), why);
                ok = false;
                return std::nullopt;
            }
            QRegularExpression re(pattern);
            if (!re.isValid()) {
                *errors
                    << tr("%1: the pattern \"%2\" is not valid: %3 at %4; the rule is left out.")
                           .arg(where, pattern.left(80), re.errorString())
                           .arg(re.patternErrorOffset());
                ok = false;
                return std::nullopt;
            }
            re.optimize();
            return re;
        };
        const QJsonObject m = o.value(QLatin1String("match")).toObject();
        r.phases = strings(m.value(QLatin1String("phase")));
        r.containerReasons = strings(m.value(QLatin1String("containerReason")));
        r.exitCodes = numbers(m.value(QLatin1String("exitCode")));
        r.exitSignals = numbers(m.value(QLatin1String("signal")));
        r.shmBelowMiB = qint64(m.value(QLatin1String("shmBelowMiB")).toDouble());
        if (m.contains(QLatin1String("podReason")))
            r.podReason = regex(m.value(QLatin1String("podReason")).toString());
        if (m.contains(QLatin1String("message")))
            r.message = regex(m.value(QLatin1String("message")).toString());
        if (m.contains(QLatin1String("event")))
            r.event = regex(m.value(QLatin1String("event")).toString());
        for (const QString &p : strings(m.value(QLatin1String("log"))))
            if (auto re = regex(p))
                r.logAny << *re;
        for (const QString &p : strings(m.value(QLatin1String("logAll"))))
            if (auto re = regex(p))
                r.logAll << *re;
        for (const QString &p : strings(m.value(QLatin1String("nodeKernel"))))
            if (auto re = regex(p))
                r.nodeKernel << *re;
        for (const QString &p : strings(m.value(QLatin1String("env"))))
            if (auto re = regex(p))
                r.env << *re;
        for (const QString &p : strings(o.value(QLatin1String("alsoLog"))))
            if (auto re = regex(p))
                r.logAlso << *re;
        r.jobOnRdmaNodes = m.value(QLatin1String("jobOnRdmaNodes")).toBool();
        r.nas = strings(m.value(QLatin1String("nas")));
        for (const QString &code : std::as_const(r.nas))
            if (!LaunchScripts::reasonCodes().contains(code)) {
                *errors << tr("%1: \"nas\" %2 is not a code the NAS check gives (%3); left out.")
                               .arg(where, code,
                                    LaunchScripts::reasonCodes().join(QStringLiteral(", ")));
                ok = false;
            }
        if (const QJsonValue ecc = m.value(QLatin1String("nodeEccUncorrected"));
            !ecc.isUndefined()) {
            if (!ecc.isBool() && ecc != QJsonValue(QLatin1String("ownCards"))) {
                *errors << tr("%1: \"nodeEccUncorrected\" is true or \"ownCards\"; left out.")
                               .arg(where);
                continue;
            }
            r.nodeEccUncorrected = ecc.toBool(true);
            r.nodeEccOwnCards = ecc.isString();
        }
        if (!ok)
            continue;
        // Criteria that hold for every pod (none given, or only "false") match nothing useful.
        const bool criteria = !r.phases.isEmpty() || !r.containerReasons.isEmpty() ||
                              !r.exitCodes.isEmpty() || !r.exitSignals.isEmpty() || r.podReason ||
                              r.message || r.event || !r.logAny.isEmpty() || !r.logAll.isEmpty() ||
                              !r.nodeKernel.isEmpty() || r.shmBelowMiB > 0 ||
                              r.nodeEccUncorrected || !r.env.isEmpty() || r.jobOnRdmaNodes ||
                              !r.nas.isEmpty();
        if (!criteria) {
            *errors << tr("%1: matches nothing (no criterion in \"match\"); left out.").arg(where);
            continue;
        }
        r.priority = o.value(QLatin1String("priority")).toInt();
        r.title = texts(o, QStringLiteral("title"));
        r.cause = texts(o, QStringLiteral("cause"));
        r.fix = texts(o, QStringLiteral("fix"));
        r.responsible = o.value(QLatin1String("responsible")).toString(QStringLiteral("job"));
        r.retryHelps = o.value(QLatin1String("retryHelps")).toBool();
        r.whileRunning = o.value(QLatin1String("whileRunning")).toBool();
        r.specFix = o.value(QLatin1String("specFix")).toString();
        if (!r.specFix.isEmpty() && !SpecFixes::known(r.specFix)) {
            *errors << tr("%1: \"specFix\" %2 is not one gpudesk can make (%3); left out.")
                           .arg(where, r.specFix, SpecFixes::names().join(QStringLiteral(", ")));
            continue;
        }
        for (const QJsonValue &v : o.value(QLatin1String("subsumes")).toArray())
            r.subsumes << v.toString();
        if (r.title.value(QString()).isEmpty()) {
            *errors << tr("%1: has no title; left out.").arg(where);
            continue;
        }
        out.m_rules << r;
    }
    return out;
}

DoctorRules DoctorRules::builtIn()
{
    QFile f(QStringLiteral(":/gpudesk/doctor/rules.json"));
    QStringList errors;
    if (!f.open(QIODevice::ReadOnly))
        return {};
    DoctorRules r = parse(f.readAll(), f.fileName(), &errors);
    // The shipped file is tested (tst_doctor): an error here is a build's mistake.
    Q_ASSERT_X(errors.isEmpty(), "DoctorRules::builtIn", qPrintable(errors.join(u'\n')));
    return r;
}

QString DoctorRules::userFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           QStringLiteral("/doctor-rules.json");
}

DoctorRules DoctorRules::load(QStringList *errors)
{
    DoctorRules r = builtIn();
    QFile f(userFile());
    if (!f.exists())
        return r;
    if (f.size() > kMaxRulesBytes || !f.open(QIODevice::ReadOnly)) {
        *errors << tr("%1 cannot be read or is over 1 MiB; only the built-in rules are used.")
                       .arg(f.fileName());
        return r;
    }
    r.merge(parse(f.readAll(), f.fileName(), errors));
    return r;
}

void DoctorRules::merge(const DoctorRules &over)
{
    // Language by language: a lab's English title for a shipped class keeps its Chinese one.
    for (auto it = over.m_classTitles.cbegin(); it != over.m_classTitles.cend(); ++it)
        for (auto t = it->cbegin(); t != it->cend(); ++t)
            m_classTitles[it.key()].insert(t.key(), t.value());
    for (const Rule &rule : over.m_rules) {
        bool replaced = false;
        for (Rule &mine : m_rules)
            if (mine.id == rule.id) {
                mine = rule;
                replaced = true;
            }
        if (!replaced)
            m_rules << rule;
    }
}

} // namespace gpudesk
