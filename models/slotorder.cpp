// SPDX-License-Identifier: GPL-3.0-or-later
#include "slotorder.h"

#include <algorithm>
#include <tuple>

namespace gpudesk {

void SlotOrder::assign(std::vector<int> order, int slotCount)
{
    m_blocks.clear();
    m_blockOf.assign(size_t(slotCount), -1);
    m_size = int(order.size());
    for (size_t i = 0; i < order.size(); i += BlockSize) {
        Block b;
        b.items.assign(order.begin() + std::ptrdiff_t(i),
                       order.begin() + std::ptrdiff_t(std::min(order.size(), i + BlockSize)));
        m_blocks.push_back(std::move(b));
    }
    reindex(0);
    m_startsValid = false;
}

void SlotOrder::growSlots(int slotCount)
{
    if (size_t(slotCount) > m_blockOf.size())
        m_blockOf.resize(size_t(slotCount), -1);
}

bool SlotOrder::contains(int slot) const
{
    return slot >= 0 && size_t(slot) < m_blockOf.size() && m_blockOf[size_t(slot)] >= 0;
}

void SlotOrder::refreshStarts() const
{
    if (m_startsValid)
        return;
    int start = 0;
    for (Block &b : m_blocks) {
        b.start = start;
        start += int(b.items.size());
    }
    m_startsValid = true;
}

void SlotOrder::reindex(int fromBlock)
{
    for (size_t b = size_t(fromBlock); b < m_blocks.size(); ++b) {
        for (const int slot : m_blocks[b].items)
            m_blockOf[size_t(slot)] = int(b);
    }
}

std::pair<int, int> SlotOrder::locate(int pos) const
{
    refreshStarts();
    auto it = std::upper_bound(m_blocks.begin(), m_blocks.end(), pos,
                               [](int p, const Block &b) { return p < b.start; });
    const int b = int(it - m_blocks.begin()) - 1;
    return {b, pos - m_blocks[size_t(b)].start};
}

int SlotOrder::at(int pos) const
{
    const auto [b, offset] = locate(pos);
    return m_blocks[size_t(b)].items[size_t(offset)];
}

int SlotOrder::position(int slot) const
{
    if (!contains(slot))
        return -1;
    refreshStarts();
    const Block &b = m_blocks[size_t(m_blockOf[size_t(slot)])];
    const auto it = std::find(b.items.begin(), b.items.end(), slot);
    return b.start + int(it - b.items.begin());
}

void SlotOrder::insert(int pos, int slot)
{
    growSlots(slot + 1);
    int b = 0;
    int offset = 0;
    if (m_blocks.empty()) {
        m_blocks.emplace_back();
    } else if (pos == m_size) {
        b = int(m_blocks.size()) - 1;
        offset = int(m_blocks.back().items.size());
    } else {
        std::tie(b, offset) = locate(pos);
    }
    std::vector<int> &items = m_blocks[size_t(b)].items;
    items.insert(items.begin() + offset, slot);
    m_blockOf[size_t(slot)] = b;
    ++m_size;
    m_startsValid = false;
    if (items.size() > 2 * BlockSize) {
        // Split in two; the blocks after it shift by one, so their items learn their new index.
        Block second;
        second.items.assign(items.begin() + BlockSize, items.end());
        items.resize(BlockSize);
        m_blocks.insert(m_blocks.begin() + b + 1, std::move(second));
        reindex(b + 1);
    }
}

void SlotOrder::erase(int pos)
{
    const auto [b, offset] = locate(pos);
    std::vector<int> &items = m_blocks[size_t(b)].items;
    m_blockOf[size_t(items[size_t(offset)])] = -1;
    items.erase(items.begin() + offset);
    --m_size;
    m_startsValid = false;
    if (items.empty()) {
        m_blocks.erase(m_blocks.begin() + b);
        reindex(b);
    }
}

std::vector<int> SlotOrder::toVector() const
{
    std::vector<int> out;
    out.reserve(size_t(m_size));
    for (const Block &b : m_blocks)
        out.insert(out.end(), b.items.begin(), b.items.end());
    return out;
}

} // namespace gpudesk
