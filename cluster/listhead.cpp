// SPDX-License-Identifier: GPL-3.0-or-later
#include "listhead.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace gpudesk {

using nlohmann::json;

namespace {

// nlohmann's SAX events of a list up to its "items": the top-level metadata.continue and
// metadata.remainingItemCount, read as the tree-based decoder reads them (a repeated key: the
// last; not a string, not a count: none).
class ListHeadReader
{
public:
    QString token;
    qint64 remaining = -1;

    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(json::number_integer_t n) { return count(n); }
    bool number_unsigned(json::number_unsigned_t n)
    {
        return count(n > json::number_unsigned_t(std::numeric_limits<qint64>::max()) ? -1
                                                                                     : qint64(n));
    }
    bool number_float(json::number_float_t, const json::string_t &) { return scalar(); }
    bool binary(json::binary_t &) { return scalar(); }
    bool string(json::string_t &s)
    {
        if (m_depth == 2 && m_inMeta && m_continueNext) {
            token = QString::fromStdString(s);
            m_continueNext = false;
            return true;
        }
        return scalar();
    }
    bool key(json::string_t &k)
    {
        if (m_depth == 1) {
            if (k == "items") {
                m_reachedItems = true;
                return false; // what follows is the items: not read
            }
            m_metaNext = k == "metadata";
        } else if (m_depth == 2 && m_inMeta) {
            m_continueNext = k == "continue";
            m_remainingNext = k == "remainingItemCount";
        }
        return true;
    }
    bool start_object(std::size_t)
    {
        if (m_depth == 1 && m_metaNext) {
            m_inMeta = true; // a repeated "metadata" replaces the one before
            token.clear();
            remaining = -1;
        }
        valueStarts();
        ++m_depth;
        return true;
    }
    bool end_object()
    {
        if (--m_depth == 1)
            m_inMeta = false;
        return true;
    }
    bool start_array(std::size_t)
    {
        valueStarts();
        ++m_depth;
        return true;
    }
    bool end_array()
    {
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &)
    {
        return false;
    }
    bool reachedItems() const { return m_reachedItems; }

private:
    bool scalar()
    {
        valueStarts();
        return true;
    }
    bool count(qint64 n)
    {
        const bool here = m_depth == 2 && m_inMeta && m_remainingNext;
        valueStarts();
        // Beyond any cluster (2^40 objects): not a count to add to, and not taken as one.
        if (here)
            remaining = n >= 0 && n < (qint64(1) << 40) ? n : -1;
        return true;
    }
    // A value other than the continue token's string, where it was expected, clears it.
    void valueStarts()
    {
        if (m_depth == 1 && m_metaNext) {
            token.clear();
            remaining = -1;
        }
        if (m_depth == 2 && m_inMeta && m_continueNext) {
            token.clear();
            m_continueNext = false;
        }
        if (m_depth == 2 && m_inMeta && m_remainingNext) {
            remaining = -1;
            m_remainingNext = false;
        }
        m_metaNext = m_metaNext && m_depth != 1;
    }

    int m_depth = 0;
    bool m_metaNext = false;
    bool m_inMeta = false;
    bool m_continueNext = false;
    bool m_remainingNext = false;
    bool m_reachedItems = false;
};

} // namespace

ListHead ListHead::read(const QByteArray &body)
{
    ListHeadReader head;
    json::sax_parse(body.begin(), body.end(), &head, nlohmann::detail::input_format_t::json, false);
    ListHead out;
    if (head.reachedItems()) {
        out.token = head.token;
        out.remaining = head.remaining;
    }
    return out;
}

QString ListHead::continueToken(const QByteArray &body)
{
    return read(body).token;
}

} // namespace gpudesk
