// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;

namespace gpudesk {

// A big figure with a caption and an optional line under it (the Overview's tiles).
class NumberCard : public QFrame
{
    Q_OBJECT
public:
    explicit NumberCard(const QString &caption, QWidget *parent = nullptr);
    void setValue(const QString &value, const QString &detail = {});
    void setAccent(const QColor &color);
    void setCaption(const QString &caption);

private:
    QLabel *m_value;
    QLabel *m_caption;
    QLabel *m_detail;
};

} // namespace gpudesk
