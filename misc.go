package forgejo

import "context"

// GetVersion returns the instance's version, such as
// "16.0.0-dev-668-1bdb1938+gitea-1.22.0" on Codeberg or "1.27.3" on Gitea.
// Every instance answers it anonymously, so it doubles as a liveness check
// and as a check that the base URL points at an API root.
//
// GET /version (getVersion). Retry: IdempotentOnly (a read).
func (s *MiscService) GetVersion(ctx context.Context) (*ServerVersion, *Response, error) {
	req := newRequest(&opGetVersion)
	v := new(ServerVersion)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// GetGeneralAPISettings returns the instance's API limits:
// max_response_items is the page size it clamps every listing to (50 on
// Codeberg), whatever limit was asked for.
//
// GET /settings/api (getGeneralAPISettings). Retry: IdempotentOnly (a read).
func (s *SettingsService) GetGeneralAPISettings(ctx context.Context) (*GeneralAPISettings, *Response, error) {
	req := newRequest(&opGetGeneralAPISettings)
	v := new(GeneralAPISettings)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// GetCurrent returns the authenticated user; it answers 401 without
// credentials.
//
// GET /user (userGetCurrent). Retry: IdempotentOnly (a read).
func (s *UsersService) GetCurrent(ctx context.Context) (*User, *Response, error) {
	req := newRequest(&opUserGetCurrent)
	v := new(User)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// ReadThread marks one notification thread read. The instance answers 205;
// any body is ignored. Neither to-status nor any other parameter is sent, so
// the instance's default (read) applies.
//
// PATCH /notifications/threads/{id} (notifyReadThread). Retry: AlwaysRetry
// (marks one thread read: the end state is the same however often it is
// sent).
func (s *NotificationsService) ReadThread(ctx context.Context, id int64) (*Response, error) {
	req := newRequest(&opNotifyReadThread, num("id", id))
	req.result = resultNone
	return s.client.call(ctx, req, nil)
}
