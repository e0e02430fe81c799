package forgejotest

import (
	"cmp"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Releases and attachments (release, issue and comment assets).

type wAttachment struct {
	ID                 int64  `json:"id"`
	Name               string `json:"name"`
	Size               int64  `json:"size"`
	DownloadCount      int64  `json:"download_count"`
	CreatedAt          string `json:"created_at"`
	UUID               string `json:"uuid"`
	BrowserDownloadURL string `json:"browser_download_url"`
	Type               string `json:"type"`
}

type wRelease struct {
	ID                   int64          `json:"id"`
	TagName              string         `json:"tag_name"`
	TargetCommitish      string         `json:"target_commitish"`
	Name                 string         `json:"name"`
	Body                 string         `json:"body"`
	URL                  string         `json:"url"`
	HTMLURL              string         `json:"html_url"`
	TarballURL           string         `json:"tarball_url"`
	ZipballURL           string         `json:"zipball_url"`
	HideArchiveLinks     bool           `json:"hide_archive_links"`
	UploadURL            string         `json:"upload_url"`
	Draft                bool           `json:"draft"`
	Prerelease           bool           `json:"prerelease"`
	CreatedAt            string         `json:"created_at"`
	PublishedAt          string         `json:"published_at"`
	Author               *wUser         `json:"author"`
	Assets               []*wAttachment `json:"assets"`
	ArchiveDownloadCount map[string]int `json:"archive_download_count"`
}

func releaseCount(r *repo) int {
	n := 0
	for _, rel := range r.releases {
		if !rel.draft {
			n++
		}
	}
	return n
}

func (v view) attachment(a *attachment) *wAttachment {
	w := &wAttachment{
		ID: a.id, Name: a.name, Size: a.size, DownloadCount: a.downloads, CreatedAt: ts(a.created), UUID: a.uuid,
		BrowserDownloadURL: v.html("/attachments/" + a.uuid), Type: "attachment",
	}
	if a.external != "" {
		w.BrowserDownloadURL, w.Type = a.external, "external"
	}
	return w
}

func (v view) attachments(as []*attachment) []*wAttachment {
	out := make([]*wAttachment, 0, len(as))
	for _, a := range as {
		out = append(out, v.attachment(a))
	}
	return out
}

func (v view) release(rel *release) *wRelease {
	r := rel.repo
	full := r.owner.login + "/" + r.name
	id := strconv.FormatInt(rel.id, 10)
	w := &wRelease{
		ID: rel.id, TagName: rel.tag, TargetCommitish: rel.target, Name: rel.name, Body: rel.body,
		URL: v.api(repoPath(r) + "/releases/" + id), HTMLURL: v.html("/" + full + "/releases/tag/" + url.PathEscape(rel.tag)),
		TarballURL: v.html("/" + full + "/archive/" + rel.tag + ".tar.gz"), ZipballURL: v.html("/" + full + "/archive/" + rel.tag + ".zip"),
		HideArchiveLinks: rel.hideArchive, UploadURL: v.api(repoPath(r) + "/releases/" + id + "/assets"),
		Draft: rel.draft, Prerelease: rel.prerelease, CreatedAt: ts(rel.created), PublishedAt: ts(rel.published),
		Author: v.user(rel.author), Assets: v.attachments(rel.assets),
		ArchiveDownloadCount: map[string]int{"zip": 0, "tar_gz": 0},
	}
	return w
}

// visibleReleases is newest first; drafts only for writers.
func (c *call) visibleReleases(r *repo) []*release {
	var out []*release
	for _, rel := range r.releases {
		if !rel.draft || canWrite(c.user, r) {
			out = append(out, rel)
		}
	}
	slices.SortStableFunc(out, func(a, b *release) int { return cmp.Or(b.created.Compare(a.created), cmp.Compare(b.id, a.id)) })
	return out
}

func hListReleases(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var out []*release
	q := strings.ToLower(c.q.Get("q"))
	for _, rel := range c.visibleReleases(r) {
		if v := c.q.Get("draft"); v != "" && strconv.FormatBool(rel.draft) != v {
			continue
		}
		if v := c.q.Get("pre-release"); v != "" && strconv.FormatBool(rel.prerelease) != v {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(rel.name), q) && !strings.Contains(strings.ToLower(rel.tag), q) {
			continue
		}
		out = append(out, rel)
	}
	page := paginate(c, out, pageLinked)
	ws := make([]*wRelease, 0, len(page))
	for _, rel := range page {
		ws = append(ws, c.v.release(rel))
	}
	c.json(http.StatusOK, ws)
}

func (c *call) pathRelease(r *repo) *release {
	id, _ := c.pathInt("id")
	rel := r.release(id)
	if rel == nil || rel.draft && !canWrite(c.user, r) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return nil
	}
	return rel
}

func hGetRelease(c *call) {
	if r := c.pathRepo(); r != nil {
		if rel := c.pathRelease(r); rel != nil {
			c.json(http.StatusOK, c.v.release(rel))
		}
	}
}

func hGetReleaseByTag(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	rel := r.releaseByTag(c.p["tag"])
	if rel == nil || rel.draft && !canWrite(c.user, r) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.json(http.StatusOK, c.v.release(rel))
}

func hLatestRelease(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	for _, rel := range c.visibleReleases(r) {
		if !rel.draft && !rel.prerelease {
			c.json(http.StatusOK, c.v.release(rel))
			return
		}
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
}

type releaseBody struct {
	TagName     *string `json:"tag_name"`
	Target      *string `json:"target_commitish"`
	Name        *string `json:"name"`
	Body        *string `json:"body"`
	Draft       *bool   `json:"draft"`
	Prerelease  *bool   `json:"prerelease"`
	HideArchive *bool   `json:"hide_archive_links"`
}

func (rel *release) apply(b releaseBody) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&rel.tag, b.TagName)
	set(&rel.target, b.Target)
	set(&rel.name, b.Name)
	set(&rel.body, b.Body)
	if b.Draft != nil {
		rel.draft = *b.Draft
	}
	if b.Prerelease != nil {
		rel.prerelease = *b.Prerelease
	}
	if b.HideArchive != nil {
		rel.hideArchive = *b.HideArchive
	}
}

// publish makes the release's tag when it has none yet.
func (c *call) publish(r *repo, rel *release) bool {
	if rel.draft || r.tag(rel.tag) != nil {
		return true
	}
	return c.addTag(r, rel.tag, rel.target, "") != nil
}

func hCreateRelease(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b releaseBody
	if !c.decode(&b) {
		return
	}
	if b.TagName == nil || strings.TrimSpace(*b.TagName) == "" {
		c.fail(http.StatusUnprocessableEntity, "[TagName]: Required")
		return
	}
	if r.releaseByTag(*b.TagName) != nil {
		c.fail(http.StatusConflict, "Release is has no Tag")
		return
	}
	if r.empty {
		c.fail(http.StatusUnprocessableEntity, "Repository is empty")
		return
	}
	rel := &release{repo: r, target: r.defaultBranch, author: c.user, created: c.now, published: c.now}
	rel.apply(b)
	if !c.publish(r, rel) {
		return
	}
	rel.id = c.st.id("release")
	r.releases = append(r.releases, rel)
	c.json(http.StatusCreated, c.v.release(rel))
	if !rel.draft {
		c.s.emitRelease(c, rel, "published")
	}
}

func hEditRelease(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	rel := c.pathRelease(r)
	if rel == nil {
		return
	}
	var b releaseBody
	if !c.decode(&b) {
		return
	}
	if b.TagName != nil && *b.TagName != rel.tag {
		if other := r.releaseByTag(*b.TagName); other != nil {
			c.fail(http.StatusConflict, "Release is has no Tag")
			return
		}
	}
	wasDraft := rel.draft
	cp := *rel
	cp.apply(b)
	if !c.publish(r, &cp) {
		return
	}
	*rel = cp
	if wasDraft && !rel.draft {
		rel.published = c.now
	}
	c.json(http.StatusOK, c.v.release(rel))
	switch {
	case wasDraft && !rel.draft:
		c.s.emitRelease(c, rel, "published")
	case !rel.draft:
		c.s.emitRelease(c, rel, "updated")
	}
}

func (c *call) deleteRelease(r *repo, rel *release) {
	r.releases = slices.DeleteFunc(r.releases, func(x *release) bool { return x == rel })
	c.empty(http.StatusNoContent)
	if !rel.draft {
		c.s.emitRelease(c, rel, "deleted")
	}
}

func hDeleteRelease(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	if rel := c.pathRelease(r); rel != nil {
		c.deleteRelease(r, rel)
	}
}

// hDeleteReleaseByTag deletes the release and leaves its tag.
func hDeleteReleaseByTag(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	rel := r.releaseByTag(c.p["tag"])
	if rel == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.deleteRelease(r, rel)
}

// ---- attachments

// streamedUpload is what readUpload found in an upload body.
type streamedUpload struct {
	multipart bool
	file      bool   // an "attachment" part came
	filename  string // its file name
	size      int64  // its size, counted
	external  string // the external_url field (Forgejo's external asset)
	status    int    // a refusal, with msg
	msg       string
}

// readUpload reads an upload body as it arrives, outside the server's lock:
// a multipart form's "attachment" file is counted and discarded, never held
// (the fake serves no attachment's content), so that a test can upload a
// release asset of any size Forgejo accepts; a file larger than limit stops
// the read with a 413. A body that is not multipart is the file itself, as
// Forgejo takes a release asset (named by ?name=).
func readUpload(r *http.Request, limit int64) *streamedUpload {
	up := &streamedUpload{}
	count := func(src io.Reader) bool {
		n, err := io.Copy(io.Discard, io.LimitReader(src, limit+1))
		up.size = n
		switch {
		case n > limit:
			up.status, up.msg = http.StatusRequestEntityTooLarge, "attachment size exceeds limit "+strconv.FormatInt(limit, 10)
		case err != nil:
			up.status, up.msg = http.StatusBadRequest, "GetFile: "+err.Error()
		default:
			return true
		}
		return false
	}
	mr, err := r.MultipartReader()
	if err != nil {
		up.file = count(r.Body)
		return up
	}
	up.multipart = true
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return up
		}
		if err != nil {
			up.status, up.msg = http.StatusBadRequest, "request is not a multipart form: "+err.Error()
			return up
		}
		switch {
		case p.FormName() == "attachment" && !up.file:
			up.filename = p.FileName()
			if up.file = count(p); !up.file {
				return up
			}
		case p.FormName() == "external_url":
			v, _ := io.ReadAll(io.LimitReader(p, 64<<10))
			up.external = string(v)
		default:
			_, _ = io.Copy(io.Discard, p)
		}
	}
}

// headRecorder passes a body through, keeping its first keep bytes (for
// the request log) and counting all of them.
type headRecorder struct {
	r    io.Reader
	keep int
	head []byte
	n    int64
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.n += int64(n)
	if room := h.keep - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// attachmentOf makes the attachment a streamed upload describes, or answers
// why not; ?name= overrides the file's name.
func (c *call) attachmentOf(kind string) (*attachment, bool) {
	up := c.up
	if up.status != 0 {
		c.fail(up.status, up.msg)
		return nil, false
	}
	a := &attachment{created: c.now, name: c.q.Get("name")}
	if ext := cmp.Or(up.external, c.q.Get("external_url")); ext != "" && up.multipart {
		a.external = ext
		if a.name == "" {
			c.fail(http.StatusUnprocessableEntity, "Missing name for external attachment")
			return nil, false
		}
	} else {
		switch {
		case !up.multipart && kind != "release":
			c.fail(http.StatusBadRequest, "request is not a multipart form: request Content-Type isn't multipart/form-data")
			return nil, false
		case !up.file:
			c.fail(http.StatusBadRequest, "GetFile: http: no such file")
			return nil, false
		}
		a.size, a.name = up.size, cmp.Or(a.name, up.filename)
		if a.name == "" {
			c.fail(http.StatusBadRequest, "Could not determine name of attachment.")
			return nil, false
		}
	}
	a.id = c.st.id("attachment")
	a.uuid = uuidFrom(fakeSHA("attachment", strconv.FormatInt(a.id, 10), a.name))
	return a, true
}

func uuidFrom(h string) string {
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

func findAttachment(as []*attachment, id int64) *attachment {
	for _, a := range as {
		if a.id == id {
			return a
		}
	}
	return nil
}

// assetsOf resolves the owner of {…}/assets: a release, an issue or a
// comment. It answers the error itself and returns nil.
func (c *call) assetsOf(kind string, write bool) (*[]*attachment, bool) {
	r := c.pathRepo()
	if r == nil {
		return nil, false
	}
	if write && !c.canWriteRepo(r) {
		return nil, false
	}
	switch kind {
	case "release":
		if rel := c.pathRelease(r); rel != nil {
			return &rel.assets, true
		}
	case "issue":
		if is := c.pathIssue(r); is != nil {
			return &is.assets, true
		}
	case "comment":
		if cm := c.pathComment(r); cm != nil {
			return &cm.assets, true
		}
	}
	return nil, false
}

func hListAssets(kind string) func(c *call) {
	return func(c *call) {
		if as, ok := c.assetsOf(kind, false); ok {
			c.json(http.StatusOK, c.v.attachments(*as))
		}
	}
}

func hCreateAsset(kind string) func(c *call) {
	return func(c *call) {
		as, ok := c.assetsOf(kind, kind == "release")
		if !ok {
			return
		}
		a, ok := c.attachmentOf(kind)
		if !ok {
			return
		}
		*as = append(*as, a)
		c.json(http.StatusCreated, c.v.attachment(a))
	}
}

func (c *call) pathAsset(as []*attachment) *attachment {
	id, _ := c.pathInt("attachment_id")
	a := findAttachment(as, id)
	if a == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
	}
	return a
}

func hGetAsset(kind string) func(c *call) {
	return func(c *call) {
		if as, ok := c.assetsOf(kind, false); ok {
			if a := c.pathAsset(*as); a != nil {
				c.json(http.StatusOK, c.v.attachment(a))
			}
		}
	}
}

func hEditAsset(kind string) func(c *call) {
	return func(c *call) {
		as, ok := c.assetsOf(kind, kind == "release")
		if !ok {
			return
		}
		a := c.pathAsset(*as)
		if a == nil {
			return
		}
		var body struct {
			Name        *string `json:"name"`
			DownloadURL *string `json:"browser_download_url"`
		}
		if !c.decode(&body) {
			return
		}
		if body.Name != nil {
			a.name = *body.Name
		}
		if body.DownloadURL != nil && a.external != "" {
			a.external = *body.DownloadURL
		}
		c.json(http.StatusCreated, c.v.attachment(a))
	}
}

func hDeleteAsset(kind string) func(c *call) {
	return func(c *call) {
		as, ok := c.assetsOf(kind, kind == "release")
		if !ok {
			return
		}
		if a := c.pathAsset(*as); a != nil {
			*as = slices.DeleteFunc(*as, func(x *attachment) bool { return x == a })
			c.empty(http.StatusNoContent)
		}
	}
}
