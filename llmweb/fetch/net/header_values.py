"""Header values a page controls, reduced to forms that cannot carry an instruction. Pure.

A model reads error messages and the lines around the page text as llmweb's own words, so
a value a server chose may appear there only as a number of seconds, an ISO date, or a token
from a closed list shipped here (media types, content codings, URL schemes, schema.org types);
anything else is described ("an unrecognised media type") or counts as absent. A grammar
alone is not enough where the words are free: ``text/ignore-previous-instructions`` is a
well-formed media type, ``Recipe.SYSTEM.call.web_fetch`` a well-formed name. (The page's
text itself travels between the BEGIN/END markers; addresses appear percent-encoded, as httpx
writes them.)
"""

from __future__ import annotations

import mimetypes
import re
from datetime import UTC
from email.utils import parsedate_to_datetime

# RFC 6838 restricted-name: type and subtype of at most 127 characters each
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
_MAX_SECONDS_DIGITS = 9  # about 31 years; longer "numbers" are not a delay anyone means


def media_type(value: str) -> str:
    """``value`` lowercased when it is a ``type/subtype`` media type, else "" (absent)."""
    value = value.strip().lower()
    return value if _MEDIA_TYPE.fullmatch(value) else ""


def retry_after(value: str | None) -> str | None:
    """A Retry-After header as "120 seconds" or "until 2026-10-21T07:28:00Z"; None when it is neither."""
    value = (value or "").strip()
    if re.fullmatch(rf"[0-9]{{1,{_MAX_SECONDS_DIGITS}}}", value):
        return f"{int(value)} seconds"
    try:
        when = parsedate_to_datetime(value)
        if when.tzinfo is None:  # "-0000": a time in UTC whose source zone is unknown
            when = when.replace(tzinfo=UTC)
        # converting can leave datetime's years 1-9999: "31 Dec 9999 23:00:00 -0100"
        return "until " + when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# The media types web_fetch reads, sniffs or names (content.py), beyond Python's own table.
_MEDIA_TYPES_WE_MEET = frozenset({
    "text/html", "application/xhtml+xml", "text/plain", "text/markdown", "text/x-markdown",
    "application/markdown", "application/x-markdown", "text/csv", "application/csv", "text/css",
    "text/xml", "application/xml", "application/rss+xml", "application/atom+xml", "image/svg+xml",
    "application/json", "text/json", "application/ld+json", "application/x-ndjson", "application/geo+json",
    "application/manifest+json", "application/problem+json", "application/vnd.api+json",
    "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
    "application/ecmascript", "application/x-sh", "application/x-shellscript", "application/yaml",
    "application/x-yaml", "text/yaml", "text/x-yaml", "application/toml", "application/x-toml",
    "application/sql", "application/graphql", "application/x-tex", "application/x-latex",
    "text/x-python", "application/x-python", "application/x-ruby", "application/x-perl",
    "application/x-httpd-php", "application/x-subrip", "text/vtt",
    "application/pdf", "application/x-pdf", "application/octet-stream", "binary/octet-stream",
    "application/unknown", "application/gzip", "application/x-gzip", "application/zip",
    "application/x-xz", "application/x-7z-compressed", "application/vnd.rar", "application/x-rar-compressed",
    "application/x-bzip2", "application/x-tar", "application/x-executable", "application/wasm",
    "image/png", "image/jpeg", "image/gif", "image/tiff", "image/webp", "image/avif", "image/x-icon",
    "image/vnd.microsoft.icon", "audio/mpeg", "audio/ogg", "audio/flac", "audio/wav", "video/mp4",
    "video/webm", "video/x-msvideo", "font/woff", "font/woff2", "font/ttf", "font/otf",
    "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
})  # fmt: skip


def _python_media_types() -> frozenset[str]:
    # MimeTypes() without file names holds only the table built into Python: the machine's
    # /etc/mime.types would make the list depend on where llmweb runs
    table = mimetypes.MimeTypes()
    return frozenset(kind for strict in (True, False) for kind in table.types_map[strict].values())


KNOWN_MEDIA_TYPES = _MEDIA_TYPES_WE_MEET | _python_media_types()
"""Every media type a message or a result may name; others are described, never quoted."""
UNRECOGNISED_MEDIA_TYPE = "an unrecognised media type"


def known_media_type(value: str | None) -> str | None:
    """``value`` lowercased when it is one of :data:`KNOWN_MEDIA_TYPES`, else None."""
    value = (value or "").strip().lower()
    return value if value in KNOWN_MEDIA_TYPES else None


# schema.org types a page's JSON-LD commonly declares (and every one schema_org.py reads by
# name). A note names the type only when it is one of these; another reads as "JSON-LD".
KNOWN_SCHEMA_TYPES = frozenset({
    "Thing", "CreativeWork", "Article", "NewsArticle", "AnalysisNewsArticle", "OpinionNewsArticle",
    "ReportageNewsArticle", "ReviewNewsArticle", "BackgroundNewsArticle", "BlogPosting", "LiveBlogPosting",
    "SocialMediaPosting", "DiscussionForumPosting", "TechArticle", "APIReference", "ScholarlyArticle",
    "MedicalScholarlyArticle", "Report", "Blog", "Comment", "Recipe", "HowTo", "HowToStep", "HowToSection",
    "HowToDirection", "HowToTip", "HowToSupply", "HowToTool", "FAQPage", "QAPage", "Question", "Answer",
    "Product", "ProductGroup", "ProductModel", "Offer", "AggregateOffer", "Review", "CriticReview",
    "UserReview", "AggregateRating", "Rating", "Brand", "Service", "Person", "Organization", "Corporation",
    "NGO", "GovernmentOrganization", "EducationalOrganization", "CollegeOrUniversity", "NewsMediaOrganization",
    "LocalBusiness", "Restaurant", "Store", "Hotel", "LodgingBusiness", "MedicalBusiness", "Place",
    "TouristAttraction", "PostalAddress", "GeoCoordinates", "Event", "MusicEvent", "SportsEvent",
    "BusinessEvent", "EducationEvent", "Festival", "Course", "CourseInstance", "Book", "Chapter",
    "Periodical", "PublicationIssue", "PublicationVolume", "Thesis", "Dataset", "DataCatalog", "Movie",
    "TVSeries", "TVSeason", "TVEpisode", "CreativeWorkSeries", "VideoGame", "VideoObject", "AudioObject",
    "ImageObject", "MediaObject", "Clip", "PodcastSeries", "PodcastEpisode", "MusicRecording",
    "MusicAlbum", "MusicPlaylist", "MusicGroup", "SoftwareApplication", "MobileApplication",
    "WebApplication", "SoftwareSourceCode", "JobPosting", "Occupation", "WebPage", "WebSite",
    "CollectionPage", "ItemPage", "AboutPage", "ContactPage", "ProfilePage", "SearchResultsPage",
    "MedicalWebPage", "RealEstateListing", "ItemList", "ListItem", "BreadcrumbList", "SiteNavigationElement",
    "WPHeader", "WPFooter", "WPSideBar", "Claim", "ClaimReview", "Statement", "Quotation", "Legislation",
    "Guide", "Quiz", "DefinedTerm", "DefinedTermSet", "Menu", "MenuSection", "MenuItem",
    "NutritionInformation", "MedicalCondition", "Drug", "Trip", "Vehicle", "Car", "Map", "Message",
    "EmailMessage", "Conversation", "SpecialAnnouncement", "LearningResource", "Syllabus", "Collection",
    "Poster", "Photograph", "Painting", "VisualArtwork", "Sculpture", "Game", "Episode", "Season",
})  # fmt: skip


def known_schema_type(value: str | None) -> str | None:
    """``value`` when it is one of :data:`KNOWN_SCHEMA_TYPES` (``Recipe``), else None."""
    return value if value in KNOWN_SCHEMA_TYPES else None


# Content codings IANA registers (HTTP Content Coding Registry), and schemes of addresses a
# page links to: a message names one only when it is in these lists.
KNOWN_CODINGS = frozenset({
    "aes128gcm", "br", "compress", "dcb", "dcz", "deflate", "exi", "gzip", "identity", "pack200-gzip",
    "x-compress", "x-gzip", "zstd", "bzip2", "x-bzip2", "lzma", "xz", "sdch",
})  # fmt: skip
KNOWN_SCHEMES = frozenset({
    "about", "blob", "chrome", "data", "file", "ftp", "ftps", "git", "gopher", "intent", "irc", "javascript",
    "ldap", "magnet", "mailto", "news", "sftp", "sms", "smb", "ssh", "tel", "view-source", "ws", "wss", "urn",
})  # fmt: skip


def known_coding(value: str | None) -> str | None:
    """``value`` lowercased when it is a registered content coding (``br``), else None."""
    value = (value or "").strip().lower()
    return value if value in KNOWN_CODINGS else None


def known_scheme(value: str | None) -> str | None:
    """``value`` lowercased when it is a well-known URL scheme (``ftp``, ``javascript``), else None."""
    value = (value or "").strip().lower()
    return value if value in KNOWN_SCHEMES else None


# The names under which frameworks embed a page's data (a global, or a <script> id). A note
# names the data by one of these; any other name, which the page chose, reads as "a script's data".
KNOWN_STATE_NAMES = frozenset({
    "__NEXT_DATA__", "__NUXT__", "__NUXT_DATA__", "__INITIAL_STATE__", "__PRELOADED_STATE__",
    "__APOLLO_STATE__", "__STATE__", "__INITIAL_DATA__", "__DATA__", "__SERVER_DATA__", "__REDUX_STATE__",
    "__INITIAL_PROPS__", "__APP_STATE__", "__APP_DATA__", "__PAGE_DATA__", "__SSR_DATA__",
    "__PRELOADED_DATA__", "__HYDRATION_DATA__", "__RELAY_STORE__", "__remixContext",
    "__reactRouterContext", "__staticRouterHydrationData", "__UNIVERSAL_DATA_FOR_REHYDRATION__",
    "__FRONTITY_CONNECT_STATE__", "__SAPPER__", "__VUE_SSR_CONTEXT__", "__INITIAL_CONTEXT__",
    "__CONTEXT__", "__PROPS__", "__STORE__", "__ROUTER_DATA__", "__SVELTEKIT_DATA__",
    "ytInitialData", "ytInitialPlayerResponse", "initialState", "initialData", "pageData", "appData",
    "serverApp-state", "ng-state", "initial-state", "app-data", "page-data", "server-data", "__DATA",
})  # fmt: skip


def known_state_name(value: str | None) -> str | None:
    """``value`` when it is one of :data:`KNOWN_STATE_NAMES` (``__NEXT_DATA__``), else None."""
    return value if value in KNOWN_STATE_NAMES else None
