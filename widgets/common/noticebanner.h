// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

class QEvent;

namespace gpudesk {

// The one box every page uses to say something above its content: a warning (plain HTTP, TLS
// off, idle environments), an error (cannot connect, a registry that does not answer), or a
// note. Themed from the palette, light or dark, and restyled when the palette changes. Its kind
// is a property, so tests find what the window says is wrong without reading colours
// (tst_demowalk fails on an error the demo did not plant).
class NoticeBanner : public QLabel
{
    Q_OBJECT
    Q_PROPERTY(Kind kind READ kind)
public:
    enum class Kind
    {
        Note,
        Warning,
        Error
    };
    Q_ENUM(Kind)

    explicit NoticeBanner(QWidget *parent = nullptr);

    // Shows `text` as `kind`; empty text hides the banner.
    void say(Kind kind, const QString &text);
    Kind kind() const { return m_kind; }

protected:
    void changeEvent(QEvent *e) override;

private:
    void restyle();

    Kind m_kind = Kind::Warning;
};

// A status line (not a box) that turns to error text and back: marked so that a test can tell
// an error from a progress message.
void showAsError(QLabel *label, bool error);

} // namespace gpudesk
