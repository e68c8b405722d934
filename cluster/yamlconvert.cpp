// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamlconvert.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <regex>

namespace gpudesk {

namespace {

// nlohmann::json keeps keys sorted, which is also how kubectl prints them.
using ordered = nlohmann::json;

void writeNode(YAML::Emitter &out, const ordered &v)
{
    switch (v.type()) {
    case ordered::value_t::object:
        out << YAML::BeginMap;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out << YAML::Key << it.key() << YAML::Value;
            writeNode(out, it.value());
        }
        out << YAML::EndMap;
        break;
    case ordered::value_t::array:
        out << YAML::BeginSeq;
        for (const auto &item : v)
            writeNode(out, item);
        out << YAML::EndSeq;
        break;
    case ordered::value_t::string: {
        const auto &s = v.get_ref<const std::string &>();
        // Strings that YAML would read as another type keep their quotes ("true", "8", "").
        const bool ambiguous = s.empty() || s == "true" || s == "false" || s == "null" ||
                               s == "yes" || s == "no" || s == "~" ||
                               s.find_first_not_of("0123456789.-+eE") == std::string::npos;
        if (s.find('\n') != std::string::npos)
            out << YAML::Literal << s;
        else if (ambiguous)
            out << YAML::DoubleQuoted << s;
        else
            out << s;
        break;
    }
    case ordered::value_t::boolean:
        out << v.get<bool>();
        break;
    case ordered::value_t::number_integer:
        out << v.get<long long>();
        break;
    case ordered::value_t::number_unsigned:
        out << v.get<unsigned long long>();
        break;
    case ordered::value_t::number_float:
        out << v.get<double>();
        break;
    default:
        out << YAML::Null;
        break;
    }
}

ordered scalar(const YAML::Node &n)
{
    const std::string &v = n.Scalar();
    // Quoted (or tagged !!str): a string, whatever it looks like.
    if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str")
        return v;
    if (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL")
        return nullptr;
    if (v == "true" || v == "True" || v == "TRUE")
        return true;
    if (v == "false" || v == "False" || v == "FALSE")
        return false;
    static const std::regex integer("^[-+]?[0-9]+$");
    static const std::regex real("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
    if (std::regex_match(v, integer)) {
        try {
            return std::stoll(v);
        } catch (const std::out_of_range &) {
            return v; // beyond 64 bits: left as written
        }
    }
    if (std::regex_match(v, real))
        return std::stod(v);
    return v;
}

ordered toJson(const YAML::Node &n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map: {
        ordered o = ordered::object();
        for (const auto &kv : n)
            o[kv.first.as<std::string>()] = toJson(kv.second);
        return o;
    }
    case YAML::NodeType::Sequence: {
        ordered a = ordered::array();
        for (const auto &item : n)
            a.push_back(toJson(item));
        return a;
    }
    case YAML::NodeType::Scalar:
        return scalar(n);
    default:
        return nullptr;
    }
}

} // namespace

QByteArray objectJson(const QString &yaml, QString *error)
{
    try {
        const std::vector<YAML::Node> docs = YAML::LoadAll(yaml.toStdString());
        if (docs.size() != 1 || !docs.front().IsMap()) {
            *error = QStringLiteral("the text is not one YAML mapping (an object)");
            return {};
        }
        return QByteArray::fromStdString(toJson(docs.front()).dump());
    } catch (const YAML::Exception &e) {
        *error = QStringLiteral("YAML error at line %1, column %2: %3")
                     .arg(e.mark.line + 1)
                     .arg(e.mark.column + 1)
                     .arg(QString::fromStdString(e.msg));
        return {};
    }
}

QString objectYaml(const QByteArray &json, bool withManagedFields, QString *error)
{
    ordered object = ordered::parse(json.begin(), json.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
        if (error)
            *error = QStringLiteral("the server's answer is not a JSON object");
        return {};
    }
    if (!withManagedFields && object.contains("metadata") && object["metadata"].is_object())
        object["metadata"].erase("managedFields");
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetSeqFormat(YAML::Block);
    out.SetMapFormat(YAML::Block);
    writeNode(out, object);
    return QString::fromUtf8(out.c_str()) + u'\n';
}

} // namespace gpudesk
