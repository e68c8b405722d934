// SPDX-License-Identifier: GPL-3.0-or-later
#include "selectors.h"

#include <QRegularExpression>

#include <algorithm>
#include <set>

namespace sim {
namespace {

bool validLabelKey(const QString &key)
{
    // [prefix/]name: name of 1-63 of [A-Za-z0-9_.-], starting and ending alphanumeric.
    static const QRegularExpression re(
        QStringLiteral("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                       "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"));
    return re.match(key).hasMatch();
}

bool validLabelValue(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$"));
    return re.match(value).hasMatch();
}

QStringList splitTopLevel(const QString &text)
{
    QStringList parts;
    int depth = 0;
    QString current;
    for (QChar c : text) {
        if (c == u'(')
            ++depth;
        else if (c == u')')
            --depth;
        if (c == u',' && depth == 0) {
            parts.append(current);
            current.clear();
        } else {
            current.append(c);
        }
    }
    parts.append(current);
    return parts;
}

const std::set<std::string> &supportedFields(const QString &resource)
{
    static const std::set<std::string> common{"metadata.name", "metadata.namespace"};
    static const std::set<std::string> pods{
        "metadata.name",      "metadata.namespace",      "spec.nodeName",    "spec.restartPolicy",
        "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase",
        "status.podIP",       "status.nominatedNodeName"};
    static const std::set<std::string> events{"metadata.name",
                                              "metadata.namespace",
                                              "involvedObject.kind",
                                              "involvedObject.namespace",
                                              "involvedObject.name",
                                              "involvedObject.uid",
                                              "involvedObject.apiVersion",
                                              "involvedObject.resourceVersion",
                                              "involvedObject.fieldPath",
                                              "reason",
                                              "reportingComponent",
                                              "source",
                                              "type"};
    static const std::set<std::string> nodes{"metadata.name", "spec.unschedulable"};
    static const std::set<std::string> namespaces{"metadata.name", "status.phase"};
    static const std::set<std::string> secrets{"metadata.name", "metadata.namespace", "type"};
    if (resource == QLatin1String("pods"))
        return pods;
    if (resource == QLatin1String("events"))
        return events;
    if (resource == QLatin1String("nodes"))
        return nodes;
    if (resource == QLatin1String("namespaces"))
        return namespaces;
    if (resource == QLatin1String("secrets"))
        return secrets;
    return common;
}

} // namespace

std::optional<LabelSelector> LabelSelector::parse(const QString &text, QString *error)
{
    LabelSelector sel;
    if (text.trimmed().isEmpty())
        return sel;
    static const QRegularExpression setRe(
        QStringLiteral("^\\s*(\\S+)\\s+(in|notin)\\s*\\((.*)\\)\\s*$"));
    for (const QString &raw : splitTopLevel(text)) {
        const QString part = raw.trimmed();
        Requirement req;
        QString key;
        QStringList values;
        if (part.isEmpty()) {
            *error = QStringLiteral("found '', expected: identifier");
            return std::nullopt;
        }
        if (const auto m = setRe.match(part); m.hasMatch()) {
            key = m.captured(1);
            req.op = m.captured(2) == QLatin1String("in") ? Op::In : Op::NotIn;
            for (const QString &v : m.captured(3).split(u','))
                values.append(v.trimmed());
        } else if (part.startsWith(u'!')) {
            key = part.mid(1).trimmed();
            req.op = Op::DoesNotExist;
        } else if (const qsizetype ne = part.indexOf(QLatin1String("!=")); ne > 0) {
            key = part.left(ne).trimmed();
            req.op = Op::NotEquals;
            values.append(part.mid(ne + 2).trimmed());
        } else if (const qsizetype eq2 = part.indexOf(QLatin1String("==")); eq2 > 0) {
            key = part.left(eq2).trimmed();
            req.op = Op::Equals;
            values.append(part.mid(eq2 + 2).trimmed());
        } else if (const qsizetype eq = part.indexOf(u'='); eq > 0) {
            key = part.left(eq).trimmed();
            req.op = Op::Equals;
            values.append(part.mid(eq + 1).trimmed());
        } else {
            key = part;
            req.op = Op::Exists;
        }
        if (!validLabelKey(key)) {
            *error = QStringLiteral("unable to parse requirement: invalid label key \"%1\": name "
                                    "part must consist of alphanumeric characters, '-', '_' or "
                                    "'.', and must start and end with an alphanumeric character")
                         .arg(key);
            return std::nullopt;
        }
        for (const QString &v : values) {
            if (!validLabelValue(v)) {
                *error = QStringLiteral("unable to parse requirement: invalid label value: "
                                        "\"%1\": must be 63 characters or less and must consist "
                                        "of alphanumeric characters, '-', '_' or '.'")
                             .arg(v);
                return std::nullopt;
            }
            req.values.push_back(v.toStdString());
        }
        req.key = key.toStdString();
        sel.m_requirements.push_back(std::move(req));
    }
    return sel;
}

std::optional<LabelSelector> LabelSelector::fromObject(const nlohmann::json &selector)
{
    LabelSelector out;
    if (!selector.is_object())
        return out;
    if (const auto ml = selector.find("matchLabels"); ml != selector.end() && ml->is_object()) {
        for (auto it = ml->begin(); it != ml->end(); ++it)
            if (it.value().is_string())
                out.m_requirements.push_back({it.key(), Op::Equals, {it.value()}});
    }
    if (const auto me = selector.find("matchExpressions"); me != selector.end() && me->is_array()) {
        static const std::pair<const char *, Op> ops[] = {{"In", Op::In},
                                                          {"NotIn", Op::NotIn},
                                                          {"Exists", Op::Exists},
                                                          {"DoesNotExist", Op::DoesNotExist}};
        for (const auto &e : *me) {
            if (!e.is_object())
                return std::nullopt;
            Requirement r{e.value("key", ""), Op::In, {}};
            const std::string op = e.value("operator", "");
            bool known = false;
            for (const auto &[name, value] : ops) {
                if (op == name) {
                    r.op = value;
                    known = true;
                }
            }
            if (!known)
                return std::nullopt;
            if (const auto vs = e.find("values"); vs != e.end() && vs->is_array())
                for (const auto &v : *vs)
                    if (v.is_string())
                        r.values.push_back(v);
            out.m_requirements.push_back(std::move(r));
        }
    }
    return out;
}

bool LabelSelector::matches(const nlohmann::json &labels) const
{
    for (const auto &r : m_requirements) {
        const bool has = labels.is_object() && labels.contains(r.key) && labels[r.key].is_string();
        const std::string value = has ? labels[r.key].get<std::string>() : std::string();
        const bool inValues =
            has && std::find(r.values.begin(), r.values.end(), value) != r.values.end();
        switch (r.op) {
        case Op::Equals:
        case Op::In:
            if (!inValues)
                return false;
            break;
        case Op::NotEquals:
        case Op::NotIn:
            if (inValues)
                return false;
            break;
        case Op::Exists:
            if (!has)
                return false;
            break;
        case Op::DoesNotExist:
            if (has)
                return false;
            break;
        }
    }
    return true;
}

std::optional<FieldSelector> FieldSelector::parse(const QString &text, const QString &resource,
                                                  QString *error)
{
    FieldSelector sel;
    if (text.trimmed().isEmpty())
        return sel;
    const auto &supported = supportedFields(resource);
    for (const QString &raw : text.split(u',')) {
        const QString part = raw.trimmed();
        Term term;
        qsizetype at = part.indexOf(QLatin1String("!="));
        qsizetype opLen = 2;
        term.negate = at > 0;
        if (at < 0) {
            at = part.indexOf(QLatin1String("=="));
            if (at < 0) {
                at = part.indexOf(u'=');
                opLen = 1;
            }
        }
        if (at <= 0) {
            *error =
                QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(text, part);
            return std::nullopt;
        }
        term.field = part.left(at).trimmed().toStdString();
        term.value = part.mid(at + opLen).trimmed().toStdString();
        if (!supported.count(term.field)) {
            *error = QStringLiteral("field label not supported: %1")
                         .arg(QString::fromStdString(term.field));
            return std::nullopt;
        }
        sel.m_terms.push_back(std::move(term));
    }
    return sel;
}

std::string FieldSelector::fieldValue(const nlohmann::json &object, const std::string &field)
{
    if (field == "source") {
        // Events select on source.component.
        const auto it = object.find("source");
        if (it != object.end() && it->is_object() && it->contains("component"))
            return (*it)["component"].get<std::string>();
        return {};
    }
    const nlohmann::json *cur = &object;
    size_t start = 0;
    while (start <= field.size()) {
        const size_t dot = field.find('.', start);
        const std::string key =
            field.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!cur->is_object() || !cur->contains(key)) {
            if (field == "spec.unschedulable" || field == "spec.hostNetwork")
                return "false";
            return {};
        }
        cur = &(*cur)[key];
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (cur->is_string())
        return cur->get<std::string>();
    if (cur->is_boolean())
        return cur->get<bool>() ? "true" : "false";
    if (cur->is_number())
        return cur->dump();
    return {};
}

bool FieldSelector::matches(const nlohmann::json &object) const
{
    for (const auto &t : m_terms) {
        const bool equal = fieldValue(object, t.field) == t.value;
        if (equal == t.negate)
            return false;
    }
    return true;
}

} // namespace sim
