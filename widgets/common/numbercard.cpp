// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbercard.h"

#include <QLabel>
#include <QVBoxLayout>

namespace gpudesk {

NumberCard::NumberCard(const QString &caption, QWidget *parent)
    : QFrame(parent), m_value(new QLabel(QStringLiteral("–"), this)),
      m_caption(new QLabel(caption, this)), m_detail(new QLabel(this))
{
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(150);
    auto *v = new QVBoxLayout(this);
    v->setSpacing(2);
    QFont f = m_value->font();
    f.setPointSizeF(f.pointSizeF() * 2.2);
    f.setBold(true);
    m_value->setFont(f);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_detail->setForegroundRole(QPalette::PlaceholderText);
    m_detail->setWordWrap(true);
    v->addWidget(m_caption);
    v->addWidget(m_value);
    v->addWidget(m_detail);
}

void NumberCard::setValue(const QString &value, const QString &detail)
{
    m_value->setText(value);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
}

void NumberCard::setAccent(const QColor &color)
{
    QPalette p = m_value->palette();
    p.setColor(QPalette::WindowText, color);
    m_value->setPalette(p);
}

} // namespace gpudesk

namespace gpudesk {

void NumberCard::setCaption(const QString &caption)
{
    m_caption->setText(caption);
}

} // namespace gpudesk
