// SPDX-License-Identifier: GPL-3.0-or-later
#include "saveimagedialog.h"

#include "noticebanner.h"

#include "palette.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace gpudesk {

SaveImageDialog::SaveImageDialog(const SaveImageRequest &base, const QStringList &registries,
                                 QWidget *parent)
    : QDialog(parent), m_base(base), m_registry(new QComboBox(this)),
      m_repository(new QLineEdit(this)), m_tag(new QLineEdit(this)), m_user(new QLineEdit(this)),
      m_password(new QLineEdit(this)), m_reference(new QLabel(this)), m_problem(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Save %1 as an image").arg(base.env));
    auto *about = new QLabel(
        tr("Commits container <b>%1</b> of pod %2 on %3 and pushes it to the registry. "
           "Only the container's own files are saved: the home volume and the NAS stay where "
           "they are.")
            .arg(base.container.toHtmlEscaped(), base.pod.toHtmlEscaped(),
                 base.node.toHtmlEscaped()),
        this);
    about->setWordWrap(true);
    m_registry->setObjectName(QStringLiteral("saveRegistry"));
    m_registry->setEditable(true);
    m_registry->addItems(registries);
    if (!base.registry.isEmpty())
        m_registry->setCurrentText(base.registry);
    m_repository->setObjectName(QStringLiteral("saveRepository"));
    m_repository->setText(base.repository);
    m_tag->setObjectName(QStringLiteral("saveTag"));
    m_tag->setText(base.tag.isEmpty() ? SaveImagePlanner::defaultTag(QDateTime::currentDateTime())
                                      : base.tag);
    m_user->setObjectName(QStringLiteral("saveUser"));
    m_user->setPlaceholderText(tr("as docker's configuration has it"));
    m_password->setObjectName(QStringLiteral("savePassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("as docker's configuration has it"));
    m_reference->setObjectName(QStringLiteral("saveReference"));
    m_reference->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setObjectName(QStringLiteral("saveProblem"));
    showAsError(m_problem, true);
    m_problem->setWordWrap(true);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));

    auto *form = new QFormLayout;
    form->addRow(tr("Registry:"), m_registry);
    form->addRow(tr("Repository:"), m_repository);
    form->addRow(tr("Tag:"), m_tag);
    form->addRow(tr("Image:"), m_reference);
    form->addRow(tr("Push as user:"), m_user);
    form->addRow(tr("Password:"), m_password);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit *e : {m_repository, m_tag, m_user, m_password})
        connect(e, &QLineEdit::textChanged, this, &SaveImageDialog::check);
    connect(m_registry, &QComboBox::currentTextChanged, this, &SaveImageDialog::check);
    setMinimumWidth(fontMetrics().averageCharWidth() * 80);
    check();
}

QString SaveImageDialog::reference() const
{
    return m_registry->currentText().trimmed() + u'/' + m_repository->text().trimmed() + u':' +
           m_tag->text().trimmed();
}

SaveImageRequest SaveImageDialog::request() const
{
    SaveImageRequest r = m_base;
    r.registry = m_registry->currentText().trimmed();
    r.repository = m_repository->text().trimmed();
    r.tag = m_tag->text().trimmed();
    r.credentials.username = m_user->text().trimmed();
    r.credentials.secret = m_password->text();
    if (!r.credentials.secret.isEmpty())
        r.credentials.source = tr("the form");
    return r;
}

void SaveImageDialog::check()
{
    // The Distribution spec's grammar: lower-case path components, a tag of 128 at most.
    static const QRegularExpression registry(
        QStringLiteral("^[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]+)?$"));
    static const QRegularExpression repository(
        QStringLiteral("^[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*$"));
    static const QRegularExpression tag(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"));
    QString problem;
    if (!registry.match(m_registry->currentText().trimmed()).hasMatch())
        problem = tr("The registry is a host name, with a port if it needs one.");
    else if (!repository.match(m_repository->text().trimmed()).hasMatch())
        problem = tr("The repository is lower-case words separated by /, such as alice/dev.");
    else if (!tag.match(m_tag->text().trimmed()).hasMatch())
        problem = tr("The tag is letters, digits, '_', '.' and '-', at most 128.");
    else if (m_user->text().trimmed().isEmpty() != m_password->text().isEmpty())
        problem = tr("Give both the user and the password, or neither (docker's configuration "
                     "is used then).");
    m_reference->setText(reference());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace gpudesk
