#pragma once
// Help in the window: the documentation built into the program (README and docs/, with their screenshots,
// rendered from their Markdown; links between them followed, web links opened in the browser), and the keyboard
// shortcuts of the window's actions, listed from the actions themselves.

#include <QDialog>
#include <QUrl>

class QComboBox;
class QLabel;
class QTableWidget;
class QTextBrowser;
class QToolButton;
class QWidget;

namespace sb::ui {

class DocsBrowser : public QDialog {
    Q_OBJECT
public:
    explicit DocsBrowser(QWidget* parent = nullptr);

    // A document of the built-in documentation by its path in the source tree ("README.md", "docs/CLI.md");
    // false, with the browser left where it was, when it is not built in.
    bool openDocument(const QString& path);

    QTextBrowser* browser() const { return m_browser; }
    QString currentPath() const;
    QString noteText() const;

    // The resource folder the documentation is built into.
    static QString root();

private:
    void follow(const QUrl& url);
    // The document just shown: its images fitted, its name in the list.
    void shown();

    QTextBrowser* m_browser = nullptr;
    QComboBox* m_contents = nullptr;
    QLabel* m_note = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
};

// Every action of `window` (and its children) that has a shortcut: what it does and its keys.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* window, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table = nullptr;
};

} // namespace sb::ui
