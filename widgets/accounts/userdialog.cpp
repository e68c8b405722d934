// SPDX-License-Identifier: GPL-3.0-or-later
#include "userdialog.h"

#include "clusterstore.h"
#include "usersservice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QString label(const QString &resource)
{
    if (resource == QLatin1String("requests.nvidia.com/gpu"))
        return UserDialog::tr("GPUs");
    if (resource == QLatin1String("requests.cpu"))
        return UserDialog::tr("CPU cores");
    if (resource == QLatin1String("requests.memory"))
        return UserDialog::tr("Memory");
    if (resource == QLatin1String("pods"))
        return UserDialog::tr("Pods");
    if (resource == QLatin1String("requests.storage"))
        return UserDialog::tr("Volume storage");
    return resource;
}

} // namespace

QList<QLineEdit *> UserDialog::quotaEdits(QWidget *parent, const ResourceAmounts &values,
                                          QFormLayout *form)
{
    QList<QLineEdit *> out;
    for (const QString &r : UserRules::quotaResources()) {
        auto *e = new QLineEdit(parent);
        e->setObjectName(QStringLiteral("quota:") + r);
        e->setProperty("resource", r);
        if (values.contains(r))
            e->setText(quantity::format(r, values.value(r)));
        e->setPlaceholderText(UserDialog::tr("no limit"));
        e->setToolTip(r);
        form->addRow(label(r), e);
        out << e;
    }
    return out;
}

bool UserDialog::readQuota(const QList<QLineEdit *> &edits, ResourceAmounts *out,
                           QStringList *errors)
{
    bool ok = true;
    for (const QLineEdit *e : edits) {
        const QString r = e->property("resource").toString();
        const QString text = e->text().trimmed();
        if (text.isEmpty())
            continue;
        if (const auto v = quantity::parseMilli(text)) {
            out->insert(r, *v);
        } else {
            ok = false;
            *errors
                << tr("%1: \"%2\" is not a quantity (e.g. 8, 500m, 960Gi).").arg(label(r), text);
        }
    }
    return ok;
}

UserDialog::UserDialog(UsersService *users, const ClusterStore *store, QWidget *parent)
    : QDialog(parent), m_store(store), m_name(new QLineEdit(this)), m_vc(new QComboBox(this)),
      m_role(new QComboBox(this)), m_view(new QCheckBox(tr("May read nodes and VCs"), this)),
      m_viewRole(new QComboBox(this)), m_defaultCpu(new QLineEdit(this)),
      m_defaultMemory(new QLineEdit(this)), m_limitMemory(new QLineEdit(this)),
      m_problems(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("New user"));
    const UserSpec d = UserSpec::defaults();
    m_name->setObjectName(QStringLiteral("userName"));
    m_name->setPlaceholderText(tr("lower-case, e.g. zhangsan"));
    m_vc->setObjectName(QStringLiteral("userVc"));
    for (const QueueInfo &q : store->queues())
        m_vc->addItem(q.name);
    m_vc->setEnabled(m_vc->count() > 0);
    if (m_vc->count() == 0)
        m_vc->addItem(tr("(this cluster has no Volcano queues)"));
    m_role->setObjectName(QStringLiteral("userRole"));
    m_role->setEditable(true);
    m_role->addItem(d.clusterRole);
    m_viewRole->setEditable(true);
    m_view->setToolTip(tr("A ClusterRoleBinding to a role that reads nodes and queues, so that "
                          "gpudesk and kubectl show the user where GPUs are free"));
    // The cluster's own roles, once the server says them; the default stays chosen.
    users->clusterRoles(this, [this](const QStringList &roles, const QString &) {
        const QString role = m_role->currentText();
        const QString view = m_viewRole->currentText();
        m_role->clear();
        m_role->addItems(roles.isEmpty() ? QStringList{role} : roles);
        m_role->setCurrentText(role);
        m_viewRole->clear();
        m_viewRole->addItems(roles);
        // A role made for reading the cluster, where there is one.
        for (const QString &candidate : {QStringLiteral("gpudesk-viewer"), QStringLiteral("view")})
            if (roles.contains(candidate)) {
                m_viewRole->setCurrentText(candidate);
                break;
            }
        if (!view.isEmpty() && roles.contains(view))
            m_viewRole->setCurrentText(view);
        m_view->setChecked(!m_viewRole->currentText().isEmpty());
        check();
    });
    m_defaultCpu->setText(
        quantity::format(QStringLiteral("cpu"), d.defaultRequest.value(QStringLiteral("cpu"))));
    m_defaultMemory->setText(quantity::format(QStringLiteral("memory"),
                                              d.defaultRequest.value(QStringLiteral("memory"))));
    m_limitMemory->setText(
        quantity::format(QStringLiteral("memory"), d.defaultLimit.value(QStringLiteral("memory"))));
    m_problems->setObjectName(QStringLiteral("userProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);

    auto *form = new QFormLayout;
    form->addRow(tr("User name"), m_name);
    form->addRow(tr("VC"), m_vc);
    form->addRow(tr("Role in their namespace"), m_role);
    auto *viewRow = new QHBoxLayout;
    viewRow->addWidget(m_view);
    viewRow->addWidget(m_viewRole, 1);
    form->addRow(tr("Cluster-wide"), viewRow);
    auto *quotaTitle = new QLabel(tr("<b>Quota</b> (users' rule of thumb: 12 CPU cores and 120 GiB "
                                     "of memory per GPU; 1 CPU per 10 GB)"),
                                  this);
    quotaTitle->setWordWrap(true);
    form->addRow(quotaTitle);
    m_quota = quotaEdits(this, d.quota, form);
    form->addRow(new QLabel(tr("<b>Defaults for containers that name no requests</b>"), this));
    form->addRow(tr("CPU request"), m_defaultCpu);
    form->addRow(tr("Memory request"), m_defaultMemory);
    form->addRow(tr("Memory limit"), m_limitMemory);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problems);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit *e : std::as_const(m_quota))
        connect(e, &QLineEdit::textChanged, this, &UserDialog::check);
    for (QLineEdit *e : {m_name, m_defaultCpu, m_defaultMemory, m_limitMemory})
        connect(e, &QLineEdit::textChanged, this, &UserDialog::check);
    connect(m_vc, &QComboBox::currentTextChanged, this, &UserDialog::check);
    connect(m_role, &QComboBox::currentTextChanged, this, &UserDialog::check);
    connect(m_view, &QCheckBox::toggled, m_viewRole, &QWidget::setEnabled);
    check();
}

void UserDialog::setName(const QString &name)
{
    m_name->setText(name);
}

UserSpec UserDialog::spec() const
{
    UserSpec s;
    s.name = m_name->text().trimmed();
    s.vc = m_vc->isEnabled() ? m_vc->currentText() : QString();
    s.clusterRole = m_role->currentText().trimmed();
    s.viewRole = m_view->isChecked() ? m_viewRole->currentText().trimmed() : QString();
    QStringList ignored;
    readQuota(m_quota, &s.quota, &ignored);
    if (const auto v = quantity::parseMilli(m_defaultCpu->text()))
        s.defaultRequest.insert(QStringLiteral("cpu"), *v);
    if (const auto v = quantity::parseMilli(m_defaultMemory->text()))
        s.defaultRequest.insert(QStringLiteral("memory"), *v);
    if (const auto v = quantity::parseMilli(m_limitMemory->text()))
        s.defaultLimit.insert(QStringLiteral("memory"), *v);
    return s;
}

void UserDialog::check()
{
    QStringList problems;
    ResourceAmounts quota;
    readQuota(m_quota, &quota, &problems);
    for (const auto &[edit, what] : {std::pair{m_defaultCpu, tr("CPU request")},
                                     std::pair{m_defaultMemory, tr("Memory request")},
                                     std::pair{m_limitMemory, tr("Memory limit")}})
        if (!edit->text().trimmed().isEmpty() && !quantity::parseMilli(edit->text()))
            problems << tr("%1: \"%2\" is not a quantity.").arg(what, edit->text());
    const UserSpec s = spec();
    if (!m_name->text().isEmpty() || problems.isEmpty())
        problems << UserRules::errors(s, *m_store);
    if (s.defaultLimit.value(QStringLiteral("memory")) > 0 &&
        s.defaultRequest.value(QStringLiteral("memory")) >
            s.defaultLimit.value(QStringLiteral("memory")))
        problems << tr("The memory request is above the memory limit.");
    m_problems->setText(problems.join(u'\n'));
    m_problems->setVisible(!problems.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problems.isEmpty());
}

} // namespace gpudesk
