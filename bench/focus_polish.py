"""Polish questions about English documentation, each with the English question a model would ask.

Written by hand, as a Polish user would ask, for sections whose answer is known (the page
and the section's id); the glossary (llmweb/fetch/focus/glossary.py) was written before these
questions and was not changed for them. The English twin is what the tool description
asks a model to send: the same question in the page's language.
"""

from __future__ import annotations

from typing import NamedTuple


class PolishQuestion(NamedTuple):
    kind: str
    page: str
    anchor: str
    polish: str
    english: str


_PY = "Python (Sphinx)"
_RS = "Rust (rustdoc)"

QUESTIONS = (
    PolishQuestion(_PY, "asyncio-task.html", "asyncio.gather",
        "Jak uruchomić kilka korutyn jednocześnie i zebrać ich wyniki w jednej liście?",
        "How do I run several coroutines concurrently and collect their results in one list?"),
    PolishQuestion(_PY, "asyncio-task.html", "asyncio.wait_for",
        "Jak przerwać oczekiwanie na korutynę po przekroczeniu limitu czasu?",
        "How do I stop waiting for a coroutine after a timeout?"),
    PolishQuestion(_PY, "asyncio-task.html", "asyncio.shield",
        "Jak ochronić zadanie przed anulowaniem?",
        "How do I protect a task from being cancelled?"),
    PolishQuestion(_PY, "asyncio-task.html", "asyncio.to_thread",
        "Jak wykonać blokującą funkcję w osobnym wątku z kodu asynchronicznego?",
        "How do I run a blocking function in a separate thread from async code?"),
    PolishQuestion(_PY, "stdtypes.html", "str.split",
        "Jak podzielić napis na listę słów według separatora?",
        "How do I split a string into a list of words by a separator?"),
    PolishQuestion(_PY, "stdtypes.html", "str.join",
        "Jak połączyć elementy listy napisów w jeden napis?",
        "How do I join a list of strings into one string?"),
    PolishQuestion(_PY, "stdtypes.html", "str.strip",
        "Jak usunąć białe znaki z początku i końca napisu?",
        "How do I remove whitespace from the start and end of a string?"),
    PolishQuestion(_PY, "stdtypes.html", "dict.get",
        "Jak odczytać wartość ze słownika z wartością domyślną, gdy klucza brak?",
        "How do I read a value from a dict with a default when the key is missing?"),
    PolishQuestion(_PY, "stdtypes.html", "list.sort",
        "Jak posortować listę w miejscu?",
        "How do I sort a list in place?"),
    PolishQuestion(_PY, "functions.html", "sorted",
        "Jak otrzymać nową posortowaną listę z dowolnego obiektu iterowalnego?",
        "How do I get a new sorted list from any iterable?"),
    PolishQuestion(_PY, "functions.html", "enumerate",
        "Jak iterować po liście i jednocześnie znać indeks elementu?",
        "How do I loop over a list and also get each element's index?"),
    PolishQuestion(_PY, "functions.html", "zip",
        "Jak iterować równolegle po kilku listach naraz?",
        "How do I iterate over several lists in parallel?"),
    PolishQuestion(_PY, "os.html", "os.makedirs",
        "Jak utworzyć katalog razem z brakującymi katalogami nadrzędnymi?",
        "How do I create a directory together with its missing parent directories?"),
    PolishQuestion(_PY, "os.html", "os.listdir",
        "Jak pobrać listę plików w katalogu?",
        "How do I list the files in a directory?"),
    PolishQuestion(_PY, "os.html", "os.remove",
        "Jak usunąć plik?",
        "How do I delete a file?"),
    PolishQuestion(_PY, "os.html", "os.getenv",
        "Jak odczytać zmienną środowiskową?",
        "How do I read an environment variable?"),
    PolishQuestion(_PY, "collections.html", "collections.Counter",
        "Jak policzyć, ile razy występuje każdy element?",
        "How do I count how many times each element occurs?"),
    PolishQuestion(_PY, "collections.html", "collections.deque",
        "Jaka struktura pozwala szybko dodawać i usuwać elementy z obu końców kolejki?",
        "Which structure allows fast appends and pops at both ends of a queue?"),
    PolishQuestion(_PY, "collections.html", "collections.defaultdict",
        "Jak utworzyć słownik, który sam wstawia wartość domyślną dla brakującego klucza?",
        "How do I make a dict that inserts a default value for a missing key?"),
    PolishQuestion(_PY, "datetime.html", "datetime.datetime.strptime",
        "Jak zamienić napis z datą na obiekt datetime według formatu?",
        "How do I parse a date string into a datetime with a format?"),
    PolishQuestion(_PY, "datetime.html", "datetime.datetime.now",
        "Jak pobrać bieżącą datę i godzinę?",
        "How do I get the current date and time?"),
    PolishQuestion(_PY, "re.html", "re.sub",
        "Jak zastąpić wszystkie dopasowania wyrażenia regularnego w tekście?",
        "How do I replace all matches of a regular expression in a text?"),
    PolishQuestion(_PY, "re.html", "re.findall",
        "Jak znaleźć wszystkie dopasowania wzorca w napisie?",
        "How do I find all matches of a pattern in a string?"),
    PolishQuestion(_PY, "json.html", "json.dumps",
        "Jak zamienić obiekt Pythona na napis JSON?",
        "How do I serialize a Python object to a JSON string?"),
    PolishQuestion(_PY, "subprocess.html", "subprocess.run",
        "Jak uruchomić polecenie systemowe i poczekać na jego zakończenie?",
        "How do I run a system command and wait for it to finish?"),
    PolishQuestion(_PY, "pathlib.html", "pathlib.Path.glob",
        "Jak znaleźć pliki pasujące do wzorca w katalogu?",
        "How do I find the files matching a pattern in a directory?"),
    PolishQuestion(_PY, "itertools.html", "itertools.chain",
        "Jak połączyć kilka iteratorów w jeden?",
        "How do I chain several iterators into one?"),
    PolishQuestion(_RS, "std/vec/struct.Vec.html", "method.retain",
        "Jak usunąć z wektora elementy, które nie spełniają warunku?",
        "How do I remove the elements of a vector that do not satisfy a condition?"),
    PolishQuestion(_RS, "std/vec/struct.Vec.html", "method.push",
        "Jak dodać element na koniec wektora?",
        "How do I append an element to the end of a vector?"),
    PolishQuestion(_RS, "std/vec/struct.Vec.html", "method.with_capacity",
        "Jak utworzyć pusty wektor z zarezerwowaną pojemnością?",
        "How do I create an empty vector with reserved capacity?"),
    PolishQuestion(_RS, "std/string/struct.String.html", "method.push_str",
        "Jak dopisać napis na końcu Stringa?",
        "How do I append a string slice to the end of a String?"),
    PolishQuestion(_RS, "std/collections/hash_map/struct.HashMap.html", "method.entry",
        "Jak wstawić wartość do mapy tylko wtedy, gdy klucza jeszcze nie ma?",
        "How do I insert a value into a map only if the key is not there yet?"),
    PolishQuestion(_RS, "std/option/enum.Option.html", "method.unwrap_or",
        "Jak pobrać wartość z Option albo wartość domyślną, gdy jest None?",
        "How do I get the value out of an Option, or a default when it is None?"),
    PolishQuestion(_RS, "std/primitive.str.html", "method.split_whitespace",
        "Jak podzielić napis na słowa według białych znaków?",
        "How do I split a string into words on whitespace?"),
)  # fmt: skip
