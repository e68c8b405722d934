// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamlconvert.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

namespace gpudesk {

namespace {

// nlohmann::json keeps keys sorted, which is also how kubectl prints them.
using ordered = nlohmann::json;

// What a plain (unquoted, untagged) scalar reads as, by YAML 1.2's core schema.
// The core schema's integer and float forms, scanned by hand in one pass: std::regex recursed
// once a character in GCC's engine, and any user's annotation of 30,000 digits ended the admin's
// gpudesk when it showed the pod's YAML (issue 33).
std::size_t digitsFrom(const std::string &v, std::size_t i)
{
    const std::size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9')
        ++i;
    return i - start;
}

std::size_t afterSign(const std::string &v)
{
    return !v.empty() && (v[0] == '-' || v[0] == '+') ? 1 : 0;
}

// [-+]?[0-9]+
bool isInteger(const std::string &v)
{
    const std::size_t i = afterSign(v);
    const std::size_t n = digitsFrom(v, i);
    return n > 0 && i + n == v.size();
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isReal(const std::string &v)
{
    std::size_t i = afterSign(v);
    const std::size_t whole = digitsFrom(v, i);
    i += whole;
    if (i < v.size() && v[i] == '.') {
        const std::size_t fraction = digitsFrom(v, ++i);
        if (whole == 0 && fraction == 0)
            return false;
        i += fraction;
    } else if (whole == 0) {
        return false;
    }
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
        ++i;
        if (i < v.size() && (v[i] == '-' || v[i] == '+'))
            ++i;
        const std::size_t exponent = digitsFrom(v, i);
        if (exponent == 0)
            return false;
        i += exponent;
    }
    return i == v.size();
}

ordered plainScalar(const std::string &v)
{
    if (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL")
        return nullptr;
    if (v == "true" || v == "True" || v == "TRUE")
        return true;
    if (v == "false" || v == "False" || v == "FALSE")
        return false;
    if (isInteger(v)) {
        try {
            return std::stoll(v);
        } catch (const std::out_of_range &) {
        }
        try {
            if (v.front() != '-')
                return std::stoull(v);
        } catch (const std::out_of_range &) {
        }
        return v; // beyond 64 bits: left as written
    }
    if (isReal(v)) {
        // Found by fuzz_yaml: 1.0e41418 made stod throw, and gpudesk ended. Beyond a double
        // (which JSON cannot carry as infinity either): left as written, as integers are.
        try {
            return std::stod(v);
        } catch (const std::out_of_range &) {
            return v;
        }
    }
    return v;
}

// Plain scalars that YAML 1.1 readers (kubectl's among them) take for booleans or numbers,
// although 1.2's core schema does not: quoted too, so that the text means one thing everywhere.
bool retypedByYaml11(const std::string &s)
{
    static const char *const words[] = {"y",    "Y",     "yes",   "Yes",  "YES",  "n",
                                        "N",    "no",    "No",    "NO",   "on",   "On",
                                        "ON",   "off",   "Off",   "OFF",  ".inf", ".Inf",
                                        ".INF", "-.inf", "+.inf", ".nan", ".NaN", ".NAN"};
    if (std::find(std::begin(words), std::end(words), s) != std::end(words))
        return true;
    return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o');
}

// How deeply `v` nests, counted without recursion (a hostile answer may nest 100,000 levels),
// stopping once past `limit`.
int depthOf(const ordered &v, int limit)
{
    std::vector<std::pair<const ordered *, int>> stack{{&v, 1}};
    int deepest = 0;
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth);
        if (deepest > limit)
            return deepest;
        for (const auto &child : *node)
            stack.emplace_back(&child, depth + 1);
    }
    return deepest;
}

void writeNode(YAML::Emitter &out, const ordered &v, int level)
{
    // Deep down, on one line: what is inside a flow collection is flow too.
    if (level == BlockDepth && v.is_structured())
        out << YAML::Flow;
    switch (v.type()) {
    case ordered::value_t::object:
        out << YAML::BeginMap;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out << YAML::Key << it.key() << YAML::Value;
            writeNode(out, it.value(), level + 1);
        }
        out << YAML::EndMap;
        break;
    case ordered::value_t::array:
        out << YAML::BeginSeq;
        for (const auto &item : v)
            writeNode(out, item, level + 1);
        out << YAML::EndSeq;
        break;
    case ordered::value_t::string: {
        const auto &s = v.get_ref<const std::string &>();
        // Strings that would be read back as another type keep their quotes ("True" of a
        // Node's conditions, "8", ""): applied unchanged, the object must stay the same.
        const bool ambiguous = !plainScalar(s).is_string() || retypedByYaml11(s);
        // A literal block ("|") reads back with exactly one final newline and cannot start with
        // a blank: other multi-line text is double-quoted (its \n escaped), or applying the
        // YAML unchanged would add or drop a newline.
        const bool literal = s.find('\n') != std::string::npos && s.back() == '\n' &&
                             (s.size() < 2 || s[s.size() - 2] != '\n') && s.front() != ' ' &&
                             s.front() != '\n' && s.find('\r') == std::string::npos;
        if (literal)
            out << YAML::Literal << s;
        else if (ambiguous || s.find('\n') != std::string::npos)
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
    // Quoted (or tagged !!str): a string, whatever it looks like.
    if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str")
        return n.Scalar();
    return plainScalar(n.Scalar());
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

// Where the text goes on after its first document: a line "---" after content (a second
// document), or anything but comments after a top-level flow collection's closing bracket.
// yaml-cpp's LoadAll never returns on text after a flow collection (`{…}, "x": 1`), and its
// Load reads the collection and drops the rest without a word: both are answered here first.
std::optional<int> textAfterDocument(const std::string &text)
{
    int line = 1;
    size_t i = text.find_first_not_of(" \t\r\n");
    for (size_t k = 0; k < i && k < text.size(); ++k)
        line += text[k] == '\n';
    if (i != std::string::npos && (text[i] == '{' || text[i] == '[')) {
        int depth = 0;
        char quote = 0;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            line += c == '\n';
            if (quote) {
                if (c == '\\' && quote == '"')
                    ++i;
                else if (c == quote)
                    quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                break;
            }
        }
        // After the close: whitespace and comments only (a flow that never closes is the
        // parser's error to name).
        bool comment = false;
        for (++i; i < text.size(); ++i) {
            const char c = text[i];
            if (c == '\n') {
                ++line;
                comment = false;
            } else if (c == '#') {
                comment = true;
            } else if (!comment && c != ' ' && c != '\t' && c != '\r') {
                return line;
            }
        }
        return std::nullopt;
    }
    bool content = false;
    line = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string_view l(text.data() + start, end - start);
        ++line;
        if (l.substr(0, 3) == "---" && (l.size() == 3 || l[3] == ' ' || l[3] == '\r')) {
            if (content)
                return line;
        } else if (l.substr(0, 3) == "...") {
            content = true; // an end marker: anything after it is another document
        } else if (const size_t c = l.find_first_not_of(" \t\r");
                   c != std::string_view::npos && l[c] != '#') {
            content = true;
        }
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace

QByteArray objectJson(const QString &yaml, QString *error)
{
    const std::string text = yaml.toStdString();
    if (const auto line = textAfterDocument(text)) {
        *error = QStringLiteral("the text goes on after the object, at line %1: one YAML mapping "
                                "(an object) is expected")
                     .arg(*line);
        return {};
    }
    try {
        const YAML::Node doc = YAML::Load(text);
        if (!doc.IsMap()) {
            *error = QStringLiteral("the text is not one YAML mapping (an object)");
            return {};
        }
        return QByteArray::fromStdString(toJson(doc).dump());
    } catch (const YAML::DeepRecursion &e) {
        // yaml-cpp's own guard against its recursion (its message says "bad file").
        *error = QStringLiteral("the text nests too deeply to be read as YAML (past line %1, "
                                "column %2): edit an object this deep as JSON, with kubectl")
                     .arg(e.mark.line + 1)
                     .arg(e.mark.column + 1);
        return {};
    } catch (const YAML::Exception &e) {
        *error = QStringLiteral("YAML error at line %1, column %2: %3")
                     .arg(e.mark.line + 1)
                     .arg(e.mark.column + 1)
                     .arg(QString::fromStdString(e.msg));
        return {};
    } catch (const nlohmann::json::type_error &) {
        // Found by fuzz_yaml: yaml-cpp turns the escapes \_ and \N into lone bytes (0xA0,
        // 0x85), not UTF-8, which JSON cannot carry (dump() threw, and gpudesk ended).
        *error = QStringLiteral("a string in the text is not valid UTF-8 (write \\u00A0 for "
                                "\\_ and \\u0085 for \\N)");
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
    if (const int depth = depthOf(object, MaxObjectDepth); depth > MaxObjectDepth) {
        if (error)
            *error = QStringLiteral("the object nests more than %1 levels deep, deeper than the "
                                    "API server takes: not shown")
                         .arg(MaxObjectDepth);
        return {};
    }
    if (!withManagedFields && object.contains("metadata") && object["metadata"].is_object())
        object["metadata"].erase("managedFields");
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetSeqFormat(YAML::Block);
    out.SetMapFormat(YAML::Block);
    writeNode(out, object, 0);
    return QString::fromUtf8(out.c_str()) + u'\n';
}

} // namespace gpudesk
